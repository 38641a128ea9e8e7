import WeaveDICore

/// A dependency that is not registered, and who needs it.
public struct MissingDependency: Sendable, CustomStringConvertible {
    /// The registration that needs it (type and name), or `nil` when it was asked for directly.
    public let dependent: String?
    /// Where the dependent was registered (`#fileID:#line` of its `register` call or module).
    public let dependentSite: RegistrationSite?
    /// The missing type (and name), e.g. `MyApp.Logger`.
    public let missing: String
    /// The missing type.
    public let missingType: Any.Type
    /// Whether the dependent's factory asked for it while being resolved.
    public let wasRequested: Bool
    /// Whether the dependent's module declared it in `dependencies:`.
    public let isDeclared: Bool

    /// "`MyApp.UserService` (registered at App/Setup.swift:12) needs `MyApp.Logger`, which is not
    /// registered", with how that was found.
    public var description: String {
        var found: [String] = []
        if wasRequested { found.append("asked for while resolving") }
        if isDeclared { found.append("declared in its module's dependencies") }
        guard let dependent else {
            return "\(missing) is not registered. Register it (or a module for it)."
        }
        let site = dependentSite.map { " (registered at \($0))" } ?? ""
        return
            "\(dependent)\(site) needs \(missing), which is not registered (\(found.joined(separator: ", "))). Register it, or remove the dependency."
    }
}
