/// Where a module came from: the factory that made it and the source line of its definition.
/// ``ModuleFactoryError`` uses it to point at both sides of a conflict.
public struct ModuleOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The name of the factory that made the module (its type name unless the app named it).
    public let factory: String
    /// Where the module was made (the `makeModule` / `Module(...)` call).
    public let site: SourceLocation

    /// An origin for a module made by `factory` at `site`.
    public init(factory: String, site: SourceLocation) {
        self.factory = factory
        self.site = site
    }

    /// "Factory at File.swift:line".
    public var description: String { "\(factory) at \(site)" }
}
