import WeaveDICore

/// The built-in factory for the domain layer: use cases, business rules, workflows.
///
/// It pairs with ``RegisterModule/makeUseCaseWithRepository(_:repositoryProtocol:repositoryFallback:name:scope:file:line:factory:)``,
/// whose result is a ready definition:
///
/// ```swift
/// extension UseCaseModuleFactory {
///     mutating func setup() {
///         definitions.append(
///             registerModule.makeUseCaseWithRepository(
///                 LoginUseCase.self,
///                 repositoryProtocol: AuthRepository.self,
///                 repositoryFallback: DefaultAuthRepository(),
///                 factory: { repository in LoginUseCaseImpl(repository: repository) }
///             )
///         )
///     }
/// }
/// ```
public struct UseCaseModuleFactory: ModuleFactory, Sendable {
    /// The maker definitions use; its modules are transient unless a definition names a scope.
    public var registerModule: RegisterModule
    /// The use-case definitions, registered in this order.
    public var definitions: [@Sendable () -> Module]

    /// An empty factory.
    public init() {
        self.registerModule = RegisterModule()
        self.definitions = []
    }
}
