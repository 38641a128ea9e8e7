import WeaveDICore

/// A group of module definitions that make ``Module`` values on demand.
///
/// A definition is a closure that makes one module; ``makeAllModules()`` (provided) calls each.
/// Neither adding definitions nor making modules builds anything: instances are built when their
/// types are resolved.
///
/// ```swift
/// struct RepositoryModuleFactory: ModuleFactory {
///     var registerModule = RegisterModule()
///     var definitions: [@Sendable () -> Module] = []
///
///     mutating func setup() {
///         // A `mutating` method may not capture `self` in an escaping closure: copy what the
///         // definitions use into locals first.
///         let registerModule = self.registerModule
///         definitions.append {
///             registerModule.makeModule(UserRepository.self) { UserRepositoryImpl() }
///         }
///     }
/// }
/// ```
public protocol ModuleFactory {
    /// The helper definitions use to make modules.
    var registerModule: RegisterModule { get }
    /// The module definitions, each making one module when called.
    var definitions: [@Sendable () -> Module] { get set }
    /// Makes every module this factory defines, in definition order.
    func makeAllModules() -> [Module]
}

extension ModuleFactory {
    /// Calls every definition once, in order.
    public func makeAllModules() -> [Module] {
        definitions.map { $0() }
    }
}
