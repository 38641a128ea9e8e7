import WeaveDICore

/// A factory that threw while validation resolved its registration.
public struct FactoryFailure: Sendable, CustomStringConvertible {
    /// The registration whose factory threw (type and name).
    public let typeName: String
    /// Where it was registered.
    public let site: RegistrationSite?
    /// The registration being built when it was asked for, if it was a dependency.
    public let requiredBy: String?
    /// What the factory threw.
    public let error: any Error

    /// The type, its site, and the error.
    public var description: String {
        let at = site.map { " (registered at \($0))" } ?? ""
        let by = requiredBy.map { ", needed by \($0)" } ?? ""
        return "The factory of \(typeName)\(at) threw\(by): \(error)"
    }
}
