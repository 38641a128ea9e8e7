import Foundation
import WeaveDICore

/// Why ``ModuleFactoryManager`` refused to register: validation runs before anything is
/// registered, so when one of these is thrown the container is untouched.
///
/// The cases are the ones a hand-written manager throws — `noModulesFound`, `duplicateModule`,
/// `invalidConfiguration` — with the details that make them actionable (which factories and source
/// lines, what is wrong) as further associated values, plus the checks a hand-written manager does
/// not make (`invalidModule`, `missingDependency`). Match on the name and ignore the details with
/// `case .duplicateModule(let typeName, _, _)` and `case .invalidConfiguration:`.
public enum ModuleFactoryError: Error, LocalizedError, CustomStringConvertible {
    /// Every factory in the manager is empty (for example ``ModuleFactoryManager/setupAllFactories()``
    /// was not called, or the configuration defines no module for the environment).
    case noModulesFound
    /// Two modules register the same type under the same name (the first value is the type, with
    /// the name if any); `first` and `second` say which factories and lines made them. `first` is
    /// a registration already in the target container when that container rejects duplicates
    /// (``Container/DuplicatePolicy/reject``).
    case duplicateModule(String, first: Origin, second: Origin)
    /// A module cannot be registered (the first value describes it); `reason` says why.
    case invalidModule(String, origin: Origin, reason: String)
    /// A module declared a dependency (see ``RegisterModule/makeDependency(_:dependencies:name:scope:file:line:factory:)->Module``)
    /// that no module in the manager provides and the target container does not register.
    case missingDependency(module: String, dependency: String, origin: Origin)
    /// The manager itself is misconfigured (for example a batch size below one); the value says how.
    case invalidConfiguration(String)

    /// What went wrong, naming the type and factories involved and what to do.
    public var description: String {
        switch self {
        case .noModulesFound:
            return "No modules found in any factory. Call setupAllFactories() before registerAll() (on a manager "
                + "made with init(environment:configuration:logger:)), add definitions to the factories, "
                + "or add a factory to the ModuleFactoryManager."
        case .duplicateModule(let type, let first, let second) where first.factory == Origin.existingRegistration:
            return "Duplicate module registration for type: \(type), made by \(second), which is already registered "
                + "at \(first.site) in the target container, whose duplicatePolicy is .reject. Remove one of them, "
                + "or give them different names."
        case .duplicateModule(let type, let first, let second) where first == second:
            return "Duplicate module registration for type: \(type), made twice by \(first): the same definition "
                + "was added twice (was setupAllFactories() or a factory's setup called twice?)."
        case .duplicateModule(let type, let first, let second):
            return "Duplicate module registration for type: \(type), made by \(first) and by \(second). "
                + "Remove one of them, or give them different names."
        case .invalidModule(let module, let origin, let reason):
            return "Invalid module \(module) made by \(origin): \(reason)."
        case .missingDependency(let module, let dependency, let origin):
            return "\(module) made by \(origin) depends on \(dependency), which no module in the manager provides "
                + "and the container does not register. Add a module for \(dependency), register it before "
                + "registerAll(), or set validatesDeclaredDependencies to false if it is registered later."
        case .invalidConfiguration(let detail):
            return "Invalid factory configuration: \(detail)."
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

extension ModuleFactoryError {
    /// Where a module came from: the factory that made it and the source line of its definition.
    /// ``ModuleFactoryError`` uses it to point at both sides of a conflict.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        /// The name of the factory that made the module (its type name unless the app named it).
        public let factory: String
        /// Where the module was made (the `makeModule` / `Module(...)` call).
        public let site: RegistrationSite

        /// An origin for a module made by `factory` at `site`.
        init(factory: String, site: RegistrationSite) {
            self.factory = factory
            self.site = site
        }

        /// "Factory at File.swift:line".
        public var description: String { "\(factory) at \(site)" }

        /// The ``factory`` of an origin that is a registration already in the target container,
        /// not a module of the manager.
        static let existingRegistration = "an existing registration in the container"
    }
}
