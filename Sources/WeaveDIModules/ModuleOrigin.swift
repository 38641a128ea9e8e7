import WeaveDICore

/// Where a module came from: the factory that made it and the source line of its definition.
/// ``ModuleFactoryError`` uses it to point at both sides of a conflict.
public struct ModuleOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The name of the factory that made the module (its type name unless the app named it).
    public let factory: String
    /// Where the module was made (the `makeModule` / `Module(...)` call).
    public let site: RegistrationSite

    /// An origin for a module made by `factory` at `site`.
    public init(factory: String, site: RegistrationSite) {
        self.factory = factory
        self.site = site
    }

    /// "Factory at File.swift:line".
    public var description: String { "\(factory) at \(site)" }
}

extension ModuleOrigin {
    /// The ``factory`` of an origin that is a registration already in the target container, not a
    /// module of the manager.
    static let existingRegistration = "an existing registration in the container"
}
