import Foundation

/// Why ``ModuleFactoryManager`` refused to register: validation runs before anything is
/// registered, so when one of these is thrown the container is untouched.
public enum ModuleFactoryError: Error, LocalizedError, CustomStringConvertible {
    /// Every factory in the manager is empty.
    case noModulesFound
    /// Two modules register the same type under the same name (the first value is the type, with
    /// the name if any); `first` and `second` say which factories and lines made them.
    case duplicateModule(String, first: ModuleOrigin, second: ModuleOrigin)
    /// A module cannot be registered (the first value describes it); `reason` says why.
    case invalidModule(String, origin: ModuleOrigin, reason: String)
    /// A module declared a dependency (see ``RegisterModule/makeDependency(_:dependencies:name:scope:file:line:factory:)``)
    /// that no module in the manager provides and the target container does not register.
    case missingDependency(module: String, dependency: String, origin: ModuleOrigin)
    /// The manager itself is misconfigured (for example a batch size below one).
    case invalidConfiguration(String)

    /// What went wrong, naming the type and factories involved and what to do.
    public var description: String {
        switch self {
        case .noModulesFound:
            return "No modules found in any factory. Add definitions to the factories (call their setup()) "
                + "or add a factory to the ModuleFactoryManager before registerAll()."
        case let .duplicateModule(type, first, second):
            return "Duplicate module registration for type: \(type), made by \(first) and by \(second). "
                + "Remove one of them, or give them different names."
        case let .invalidModule(module, origin, reason):
            return "Invalid module \(module) made by \(origin): \(reason)."
        case let .missingDependency(module, dependency, origin):
            return "\(module) made by \(origin) depends on \(dependency), which no module in the manager provides "
                + "and the container does not register. Add a module for \(dependency), register it before "
                + "registerAll(), or set validatesDeclaredDependencies to false if it is registered later."
        case let .invalidConfiguration(detail):
            return "Invalid factory configuration: \(detail)."
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
