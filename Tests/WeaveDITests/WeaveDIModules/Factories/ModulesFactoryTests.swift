import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDIModules

// Module Factory guide shapes: protocols and implementations the factories register (fileprivate so other test
// files may use the same names).

private final class BuildCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func hit(_ key: String) {
        lock.lock()
        counts[key, default: 0] += 1
        lock.unlock()
    }
    func count(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[key, default: 0]
    }
}

private protocol DatabaseService: AnyObject {}
private final class InMemoryDatabaseService: DatabaseService {}
private protocol Logger {}
private struct ConsoleLogger: Logger {}
private protocol CacheService {}
private struct MemoryCache: CacheService {}

// Deliberately not Sendable: the guides' apps use plain protocols.
private protocol UserRepository { var database: DatabaseService { get } }
private final class UserRepositoryImpl: UserRepository {
    let database: DatabaseService
    let logger: Logger?
    init(database: DatabaseService, logger: Logger?) {
        self.database = database
        self.logger = logger
    }
}
private protocol BookRepository {}
private struct BookRepositoryImpl: BookRepository {}
private struct CachedBookRepository: BookRepository {
    let baseRepository: BookRepository
    let cache: CacheService
}

private protocol AuthRepository { var source: String { get } }
private struct RemoteAuthRepository: AuthRepository { let source = "remote" }
private struct DefaultAuthRepository: AuthRepository {
    let source = "default"
    init(counter: BuildCounter? = nil) { counter?.hit("fallback") }
}
private protocol LoginUseCase { var repository: AuthRepository { get } }
private struct LoginUseCaseImpl: LoginUseCase {
    let repository: AuthRepository
    let logger: Logger?
}

private protocol SearchUseCase {}
private struct CachedSearchUseCaseImpl: SearchUseCase { let cacheService: CacheService }

private enum Environment { case development, staging, production }
private struct AppConfiguration { let stagingDBPath: String }
private final class SQLiteDatabaseService: DatabaseService {
    let path: String
    init(path: String) { self.path = path }
}
private final class PostgreSQLDatabaseService: DatabaseService {}

private struct FlakyError: Error, Equatable { let code: Int }

// MARK: - Factories in the guide's own shapes

/// The guide's "Simple Module Factory", with the one fix the guide's code needs (copy `registerModule` into a local).
private struct SeedRepositoryModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(UserRepository.self) {
                UserRepositoryImpl(
                    database: WeaveDI.Container.shared.resolve(DatabaseService.self)!,
                    logger: WeaveDI.Container.shared.resolve(Logger.self)
                )
            }
        }
        definitions.append {
            registerModule.makeModule(BookRepository.self) {
                CachedBookRepository(
                    baseRepository: BookRepositoryImpl(),
                    cache: WeaveDI.Container.shared.resolve(CacheService.self)!
                )
            }
        }
    }

    func makeAllModules() -> [Module] {
        definitions.map { $0() }
    }
}

/// The guide's "Custom Specialized Factories": an infrastructure factory configured per environment.
private struct InfrastructureModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup(for environment: Environment, config: AppConfiguration) {
        let registerModule = self.registerModule
        let path = config.stagingDBPath
        definitions.append {
            registerModule.makeModule(DatabaseService.self, scope: .singleton) {
                switch environment {
                case .development:
                    return InMemoryDatabaseService()
                case .staging:
                    return SQLiteDatabaseService(path: path)
                case .production:
                    return PostgreSQLDatabaseService()
                }
            }
        }
        definitions.append {
            registerModule.makeModule(Logger.self) { ConsoleLogger() }
        }
        definitions.append {
            registerModule.makeModule(CacheService.self) { MemoryCache() }
        }
    }

    func makeAllModules() -> [Module] {
        definitions.map { $0() }
    }
}

/// The guide's "UseCase Factory with Repository Dependencies" on the built-in factory, extended by the app.
extension UseCaseModuleFactory {
    fileprivate mutating func setup(counter: BuildCounter) {
        definitions.append(
            registerModule.makeUseCaseWithRepository(
                LoginUseCase.self,
                repositoryProtocol: AuthRepository.self,
                repositoryFallback: DefaultAuthRepository(counter: counter),
                factory: { repository in
                    LoginUseCaseImpl(
                        repository: repository,
                        logger: WeaveDI.Container.shared.resolve(Logger.self)
                    )
                }
            )
        )
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(SearchUseCase.self) {
                CachedSearchUseCaseImpl(cacheService: WeaveDI.Container.shared.resolve(CacheService.self)!)
            }
        }
    }
}

/// The guide's `extension RepositoryModuleFactory { mutating func setup() }` on the built-in type.
extension RepositoryModuleFactory {
    fileprivate mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(BookRepository.self) { BookRepositoryImpl() }
        }
    }
}

/// The guide's "Enhanced Factory with Error Handling": a multi-statement factory that recovers.
private struct SafeRepositoryModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(DatabaseService.self) {
                do {
                    // Try the remote database first
                    throw FlakyError(code: 503)
                } catch {
                    // Fallback to local database
                    let localDB = InMemoryDatabaseService()
                    return localDB
                }
            }
        }
    }
}

private enum ModuleError: Error {
    case noModulesFound
    case invalidModule(String)
}

/// The guide's "Advanced Registration with Validation".
private func validateModules(_ modules: [Module]) throws {
    guard !modules.isEmpty else {
        throw ModuleError.noModulesFound
    }
    for module in modules {
        guard module.isValid else {
            throw ModuleError.invalidModule(module.description)
        }
    }
}

// MARK: - Tests

@Suite("Modules: RegisterModule and factories", .capturesLog)
struct ModulesFactoryTests {
    @Test("making and registering modules builds nothing; resolving builds")
    func makingBuildsNothing() async {
        let counter = BuildCounter()
        let module = RegisterModule().makeModule(CacheService.self) {
            counter.hit("cache")
            return MemoryCache()
        }
        let container = Container()
        await container.register(module)
        #expect(counter.count("cache") == 0)
        #expect(container.resolve(CacheService.self) != nil)
        #expect(counter.count("cache") == 1)
    }

    @Test("Module describes its type, name and scope; an empty name is invalid")
    func moduleDescriptionAndValidity() {
        let module = Module(CacheService.self, scope: .singleton) { MemoryCache() }
        #expect(module.description.contains("CacheService"))
        #expect(module.description.contains("singleton"))
        #expect(ObjectIdentifier(module.type) == ObjectIdentifier(CacheService.self))
        #expect(module.isValid)
        let named = Module(CacheService.self, name: "fast") { MemoryCache() }
        #expect(named.isValid)
        #expect(named.name == "fast")
        let empty = Module(CacheService.self, name: "") { MemoryCache() }
        #expect(!empty.isValid)
    }

    @Test("the guide's repository and infrastructure factories register and resolve through Container.shared")
    func seedRepositoryAndInfrastructureFactories() async {
        var infrastructure = InfrastructureModuleFactory()
        infrastructure.setup(for: .staging, config: AppConfiguration(stagingDBPath: "/tmp/staging.db"))
        var repositories = SeedRepositoryModuleFactory()
        repositories.setup()
        let modules = infrastructure.makeAllModules() + repositories.makeAllModules()
        #expect(modules.count == 5)

        let container = Container()
        await Container.withShared(container) {
            await WeaveDI.Container.bootstrap { container in
                for module in modules {
                    await container.register(module)
                }
            }
            let repository = WeaveDI.Container.shared.resolve(UserRepository.self)
            #expect((repository?.database as? SQLiteDatabaseService)?.path == "/tmp/staging.db")
            // The database is a singleton: both repositories share it.
            let again = WeaveDI.Container.shared.resolve(UserRepository.self)
            #expect(repository?.database === again?.database)
            #expect(WeaveDI.Container.shared.resolve(BookRepository.self) is CachedBookRepository)
        }
    }

    @Test("seed: validate, then register concurrently in a task group inside bootstrap")
    func seedValidationAndTaskGroupRegistration() async throws {
        var factory = SafeRepositoryModuleFactory()
        factory.setup()
        let modules = factory.makeAllModules()
        try validateModules(modules)
        #expect(throws: ModuleError.self) { try validateModules([]) }

        let container = Container()
        let registered = BuildCounter()
        await Container.withShared(container) {
            await WeaveDI.Container.bootstrap { container in
                await withTaskGroup(of: Void.self) { group in
                    for module in modules {
                        group.addTask {
                            await container.register(module)
                            registered.hit(module.description)
                        }
                    }
                }
            }
        }
        #expect(registered.count(modules[0].description) == 1)
        #expect(container.resolve(DatabaseService.self) is InMemoryDatabaseService)
    }

    @Test("the environment decides the infrastructure module's implementation")
    func infrastructurePerEnvironment() async {
        for environment in [Environment.development, .staging, .production] {
            var factory = InfrastructureModuleFactory()
            factory.setup(for: environment, config: AppConfiguration(stagingDBPath: "db"))
            let container = Container()
            for module in factory.makeAllModules() { await container.register(module) }
            let database = container.resolve(DatabaseService.self)
            switch environment {
            case .development: #expect(database is InMemoryDatabaseService)
            case .staging: #expect(database is SQLiteDatabaseService)
            case .production: #expect(database is PostgreSQLDatabaseService)
            }
        }
    }

    @Test("built-in RepositoryModuleFactory is set up by an app extension; makeAllModules is provided")
    func builtInFactoryExtendedByApp() {
        var factory = RepositoryModuleFactory()
        #expect(factory.makeAllModules().isEmpty)
        factory.setup()
        let modules = factory.makeAllModules()
        #expect(modules.count == 1)
        #expect(modules.first.map { ObjectIdentifier($0.type) } == ObjectIdentifier(BookRepository.self))
        let container = Container()
        modules.forEach(container.register)
        #expect(container.resolve(BookRepository.self) is BookRepositoryImpl)
    }

    @Test("use case gets the registered repository, looked up when the use case is resolved")
    func useCaseUsesRegisteredRepository() async {
        let counter = BuildCounter()
        var factory = UseCaseModuleFactory()
        factory.setup(counter: counter)
        let container = Container()
        await Container.withShared(container) {
            for module in factory.makeAllModules() { await container.register(module) }
            // Registered after the use case: the lookup happens at resolution time.
            container.register(AuthRepository.self) { RemoteAuthRepository() }
            container.register(CacheService.self) { MemoryCache() }
            let useCase = container.resolve(LoginUseCase.self)
            #expect(useCase?.repository.source == "remote")
            #expect(container.resolve(SearchUseCase.self) != nil)
        }
        #expect(counter.count("fallback") == 0, "the fallback autoclosure must not run when a repository is registered")
    }

    @Test("use case falls back to the repositoryFallback only when no repository is registered")
    func useCaseFallsBack() async {
        let counter = BuildCounter()
        var factory = UseCaseModuleFactory()
        factory.setup(counter: counter)
        let container = Container()
        for module in factory.makeAllModules() { await container.register(module) }
        #expect(counter.count("fallback") == 0, "making and registering the module builds no fallback")
        let useCase = container.resolve(LoginUseCase.self)
        #expect(useCase?.repository.source == "default")
        #expect(counter.count("fallback") == 1)
    }

    @Test("use case repository comes from the container the module was registered into")
    func useCaseRepositoryFromRegisteringContainer() {
        let makeUseCase = RegisterModule().makeUseCaseWithRepository(
            LoginUseCase.self, repositoryProtocol: AuthRepository.self,
            repositoryFallback: DefaultAuthRepository(),
            factory: { LoginUseCaseImpl(repository: $0, logger: nil) })
        let withRepository = Container()
        withRepository.register(AuthRepository.self) { RemoteAuthRepository() }
        let without = Container()
        makeUseCase().register(into: withRepository)
        makeUseCase().register(into: without)
        #expect(withRepository.resolve(LoginUseCase.self)?.repository.source == "remote")
        #expect(without.resolve(LoginUseCase.self)?.repository.source == "default")
        // A child container falls back to its parent's repository too.
        let child = Container(parent: withRepository)
        makeUseCase().register(into: child)
        #expect(child.resolve(LoginUseCase.self)?.repository.source == "remote")
    }

    @Test("a registered repository that fails makes the use case fail instead of using the fallback")
    func failingRepositoryIsNotMaskedByFallback() throws {
        let container = Container()
        container.register(AuthRepository.self) { () throws -> AuthRepository in throw FlakyError(code: 7) }
        RegisterModule().makeUseCaseWithRepository(
            LoginUseCase.self, repositoryProtocol: AuthRepository.self,
            repositoryFallback: DefaultAuthRepository(),
            factory: { LoginUseCaseImpl(repository: $0, logger: nil) })().register(into: container)
        #expect(throws: DIError.self) { try container.resolveOrThrow(LoginUseCase.self) }
    }

    @Test("makeDependency keeps declared dependencies; a throwing factory fails the resolution with the error")
    func makeDependencyThrowing() async throws {
        let module = RegisterModule().makeDependency(
            UserRepository.self, dependencies: [DatabaseService.self, Logger.self]
        ) {
            throw FlakyError(code: 42)
        }
        #expect(module.dependencies.count == 2)
        #expect(module.dependencies.first.map(ObjectIdentifier.init) == ObjectIdentifier(DatabaseService.self))
        let container = Container()
        await container.register(module)
        #expect(container.resolve(UserRepository.self) == nil)
        let error = #expect(throws: DIError.self) { try container.resolveOrThrow(UserRepository.self) }
        guard case .factoryFailed(let type, _, let underlying)? = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(UserRepository.self))
        #expect(underlying as? FlakyError == FlakyError(code: 42))
        // The declared dependencies are visible on the registration.
        let info = try #require(
            container.registrations.first { ObjectIdentifier($0.type) == ObjectIdentifier(UserRepository.self) })
        #expect(info.declaredDependencies.count == 2)
    }

    @Test("makeDependency with a working factory resolves normally, with name and scope")
    func makeDependencySucceeds() {
        let container = Container()
        RegisterModule().makeDependency(CacheService.self, name: "memory", scope: .singleton) { MemoryCache() }
            .register(into: container)
        #expect(container.resolve("memory", CacheService.self) is MemoryCache)
        #expect(container.resolve(CacheService.self) == nil)
    }

    @Test("module sites point at the make… call")
    func moduleSite() {
        let line = #line + 1
        let module = RegisterModule().makeModule(CacheService.self) { MemoryCache() }
        #expect(module.site.line == line)
        #expect(module.site.fileID.hasSuffix("ModulesFactoryTests.swift"))
    }

    @Test("ScopeModuleFactory modules live in its scope: one instance per scope instance")
    func scopeFactory() {
        final class RequestContext: Sendable {}
        var factory = ScopeModuleFactory()
        #expect(factory.scope == .request)
        let registerModule = factory.registerModule
        factory.definitions.append { registerModule.makeModule(RequestContext.self) { RequestContext() } }
        let modules = factory.makeAllModules()
        #expect(modules.first?.scope == .request)
        #expect(factory.registerModule.makeModule(RequestContext.self) { RequestContext() }.scope == .request)

        let container = Container()
        modules.forEach(container.register)
        let (first, second) = container.withScope(.request) {
            (container.resolve(RequestContext.self), container.resolve(RequestContext.self))
        }
        let other = container.withScope(.request) { container.resolve(RequestContext.self) }
        #expect(first != nil && first === second)
        #expect(other != nil && other !== first)

        let session = ScopeModuleFactory(scope: .session)
        #expect(session.registerModule.makeModule(RequestContext.self) { RequestContext() }.scope == .session)
        #expect(
            session.registerModule.makeModule(RequestContext.self, scope: .singleton) { RequestContext() }.scope
                == .singleton)
    }
}
