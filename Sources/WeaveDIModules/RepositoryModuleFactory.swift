import WeaveDICore

/// The built-in factory for the data layer: repositories, API clients, data mappers, caches.
///
/// Apps add their definitions in an extension and register the factory through
/// ``ModuleFactoryManager`` (whose ``ModuleFactoryManager/repositoryFactory`` it is):
///
/// ```swift
/// extension RepositoryModuleFactory {
///     mutating func setup() {
///         let registerModule = self.registerModule
///         definitions.append {
///             registerModule.makeModule(UserRepository.self) { UserRepositoryImpl() }
///         }
///     }
/// }
/// ```
public struct RepositoryModuleFactory: ModuleFactory, Sendable {
    /// The maker definitions use; its modules are transient unless a definition names a scope.
    public var registerModule: RegisterModule
    /// The repository definitions, registered in this order.
    public var definitions: [@Sendable () -> Module]

    /// An empty factory.
    public init() {
        self.registerModule = RegisterModule()
        self.definitions = []
    }
}
