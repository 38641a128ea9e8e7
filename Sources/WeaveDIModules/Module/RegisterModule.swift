import WeaveDICore

/// Makes ``Module`` values: the helper every ``ModuleFactory`` carries as `registerModule`.
///
/// Making a module builds nothing: each factory runs when its type is resolved. The `file` and
/// `line` of the call are kept on the module, so duplicate and validation errors point at it.
///
/// ```swift
/// let registerModule = RegisterModule()
/// let repository = registerModule.makeModule(UserRepository.self) { UserRepositoryImpl() }
/// let useCase = registerModule.makeUseCaseWithRepository(
///     LoginUseCase.self,
///     repositoryProtocol: AuthRepository.self,
///     repositoryFallback: DefaultAuthRepository(),
///     factory: { repository in LoginUseCaseImpl(repository: repository) }
/// )
/// ```
public struct RegisterModule: Sendable {
    /// The scope modules get when a `make…` call does not name one.
    public let defaultScope: Scope

    /// A maker whose modules are transient (a new instance per resolution) unless a call says otherwise.
    public init() {
        self.defaultScope = .transient
    }

    /// A maker whose modules get `defaultScope` unless a call says otherwise
    /// (``ScopeModuleFactory`` uses this for its scoped modules).
    public init(defaultScope: Scope) {
        self.defaultScope = defaultScope
    }

    /// A module registering `factory` for `type` (under `name`, with `scope` or the maker's
    /// ``defaultScope``). The factory runs when `type` is resolved; if it throws, that resolution
    /// fails with ``DIError/factoryFailed(_:name:underlying:)``.
    public func makeModule<T>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> Module {
        Module(type, name: name, scope: scope ?? defaultScope, file: file, line: line, factory: factory)
    }

    /// A module definition for a use case built on a repository.
    ///
    /// When `useCaseProtocol` is resolved, the repository is resolved from the container the module
    /// was registered into; only if no `repositoryProtocol` is registered there (or in its parents)
    /// is `repositoryFallback` built and used. A registered repository whose factory fails makes the
    /// use case's resolution fail with that error rather than silently using the fallback.
    ///
    /// The result is a definition (`@Sendable () -> Module`), ready for `definitions.append(...)`.
    public func makeUseCaseWithRepository<UseCase, Repo>(
        _ useCaseProtocol: UseCase.Type,
        repositoryProtocol: Repo.Type,
        repositoryFallback: @Sendable @autoclosure @escaping () -> Repo,
        name: String? = nil,
        scope: Scope? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @Sendable @escaping (Repo) -> UseCase
    ) -> @Sendable () -> Module {
        let scope = scope ?? defaultScope
        let site = RegistrationSite(fileID: file, line: line)
        return {
            Module(useCaseProtocol, name: name, scope: scope, dependencies: [], site: site) { container in
                let repositoryKey = RegistryKey(Repo.self)
                let repository: Repo =
                    container.isRegistered(key: repositoryKey)
                    ? try container.resolveCore(key: repositoryKey, type: Repo.self)
                    : repositoryFallback()
                return factory(repository)
            }
        }
    }

    /// A module whose factory may throw and which declares the types it needs.
    ///
    /// A throw makes that resolution fail with ``DIError/factoryFailed(_:name:underlying:)`` carrying
    /// the error (reported to `onResolutionError`; `resolve` returns `nil`), never a crash.
    /// `dependencies` are kept on the module (``Module/dependencies``) so
    /// ``ModuleFactoryManager`` validation can check each is provided before registering.
    public func makeDependency<T>(
        _ type: T.Type,
        dependencies: [Any.Type] = [],
        name: String? = nil,
        scope: Scope? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @Sendable @escaping () throws -> T
    ) -> Module {
        Module(
            type, name: name, scope: scope ?? defaultScope, dependencies: dependencies,
            file: file, line: line, factory: factory)
    }
}
