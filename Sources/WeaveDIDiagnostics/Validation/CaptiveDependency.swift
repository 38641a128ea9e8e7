import WeaveDICore

/// A singleton whose factory resolved something meant to live shorter: the singleton keeps that
/// instance for the life of the container, so it outlives its scope (a request-scoped object
/// kept after the request ends, a transient shared by everyone through the singleton).
public struct CaptiveDependency: Sendable, Hashable, CustomStringConvertible {
    /// The singleton (type and name).
    public let singleton: String
    /// Where the singleton was registered.
    public let singletonSite: RegistrationSite
    /// The shorter-lived dependency (type and name).
    public let dependency: String
    /// The dependency's lifetime: `transient`, `weak` or a custom scope such as `scope(request)`.
    public let dependencyScope: Scope
    /// Where the dependency was registered.
    public let dependencySite: RegistrationSite

    /// Who holds what, with both registration sites and what to do.
    public var description: String {
        "Captive dependency: singleton \(singleton) (registered at \(singletonSite)) holds \(dependency), which is \(dependencyScope) (registered at \(dependencySite)). Inject a factory or provider instead, or make the holder shorter-lived."
    }
}
