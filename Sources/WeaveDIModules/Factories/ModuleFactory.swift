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

/// The built-in factory for scoped dependencies: request-scoped services, session data, temporary
/// contexts. Every module it makes lives in ``scope`` (``Scope/request`` unless set otherwise),
/// unless its definition names another scope explicitly.
///
/// ```swift
/// extension ScopeModuleFactory {
///     mutating func setup() {
///         let registerModule = self.registerModule   // carries `scope`
///         definitions.append {
///             registerModule.makeModule(RequestContext.self) { RequestContext() }
///         }
///     }
/// }
///
/// var factory = ScopeModuleFactory(scope: .session)
/// factory.setup()
/// ```
public struct ScopeModuleFactory: ModuleFactory, Sendable {
    /// The scope this factory's modules live in.
    public var scope: Scope
    /// The scoped definitions, registered in this order.
    public var definitions: [@Sendable () -> Module]

    /// An empty factory whose modules are per-request (``Scope/request``).
    public init() {
        self.init(scope: .request)
    }

    /// An empty factory whose modules live in `scope`.
    public init(scope: Scope) {
        self.scope = scope
        self.definitions = []
    }

    /// A maker whose modules default to ``scope``.
    public var registerModule: RegisterModule { RegisterModule(defaultScope: scope) }
}

/// A ``ModuleFactory`` that can be made empty, with `init()`, so that ``ModuleFactoryManager`` can
/// make it and set it up (see ``ModuleFactoryConfiguration``).
///
/// A factory whose stored properties all have default values has that `init()` already:
///
/// ```swift
/// struct PresentationModuleFactory: LayerModuleFactory {
///     var registerModule = RegisterModule()
///     var definitions: [@Sendable () -> Module] = []
///
///     mutating func setup() { ... }
/// }
/// ```
public protocol LayerModuleFactory: ModuleFactory, Sendable {
    /// A factory with no definitions yet.
    init()
}

extension RepositoryModuleFactory: LayerModuleFactory {}
extension UseCaseModuleFactory: LayerModuleFactory {}
extension ScopeModuleFactory: LayerModuleFactory {}
