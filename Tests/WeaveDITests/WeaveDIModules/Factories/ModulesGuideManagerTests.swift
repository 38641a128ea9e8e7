import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

// The Module Factory guide's app, using WeaveDI's `ModuleFactoryManager`, `ModuleFactoryError` and
// statistics instead of its own copies. What is kept from the guide is as written, with only the
// fixes invalid Swift needs (a `mutating` method's escaping closures copy what they use into locals;
// a missing `try`). What replaces the deleted manager copy is the adaptation the ModuleFactories
// article shows: the configuration's `setUpFactories` (the copy's `setupAllFactories` body), and
// `LayerModuleFactory` / `ModuleFactoryLogger` conformances.

// MARK: The app's environment, configuration and logger

private enum Environment: Sendable, CaseIterable {
    case development, staging, production
}

private struct DatabaseConfig: Sendable { let host: String }

private struct AppConfiguration {
    let stagingDBPath: String
    let productionDBConfig: DatabaseConfig
    let apiBaseURL: String
    let networkTimeout: TimeInterval
    let logPath: String
    let logEndpoint: String

    static func load() throws -> AppConfiguration {
        AppConfiguration(
            stagingDBPath: "/var/db/staging.sqlite", productionDBConfig: DatabaseConfig(host: "db.example.com"),
            apiBaseURL: "https://api.example.com", networkTimeout: 15, logPath: "/var/log/app.log",
            logEndpoint: "https://logs.example.com")
    }
}

private enum LogLevel: Int, Sendable, Comparable {
    case debug, info, warning, error
    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

private protocol Logger: Sendable {
    func info(_ message: String)
    func debug(_ message: String)
}

/// Keeps what it is told at or above its level.
private final class LogBook: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(LogLevel, String)] = []
    func append(_ level: LogLevel, _ message: String) { lock.withLock { entries.append((level, message)) } }
    var messages: [String] { lock.withLock { entries.map(\.1) } }
    func messages(at level: LogLevel) -> [String] { lock.withLock { entries.filter { $0.0 == level }.map(\.1) } }
}

private struct ConsoleLogger: Logger {
    var level: LogLevel = .warning
    func info(_ message: String) { if level <= .info { print(message) } }
    func debug(_ message: String) { if level <= .debug { print(message) } }
}

private struct FileLogger: Logger {
    let level: LogLevel
    let path: String
    func info(_ message: String) {}
    func debug(_ message: String) {}
}

private struct RemoteLogger: Logger {
    let level: LogLevel
    let endpoint: String
    func info(_ message: String) {}
    func debug(_ message: String) {}
}

/// The app's shared logger: records everything, so the tests can read what the manager said.
private final class AppLogger: Logger {
    static let shared = AppLogger()
    let book = LogBook()
    func info(_ message: String) { book.append(.info, message) }
    func debug(_ message: String) { book.append(.debug, message) }
}

private enum AppEnvironment {
    static let current: Environment = .staging
}

// Adaptation: the app's loggers are the manager's loggers.
extension ConsoleLogger: ModuleFactoryLogger {}
extension AppLogger: ModuleFactoryLogger {}

// MARK: Services

private protocol DatabaseService: Sendable { var location: String { get } }
private struct InMemoryDatabaseService: DatabaseService { let location = "memory" }
private struct SQLiteDatabaseService: DatabaseService {
    let path: String
    var location: String { "sqlite:\(path)" }
}
private struct PostgreSQLDatabaseService: DatabaseService {
    let config: DatabaseConfig
    var location: String { "postgres:\(config.host)" }
}

private protocol NetworkInterceptor: Sendable {}
private struct AuthInterceptor: NetworkInterceptor {}
private struct LoggingInterceptor: NetworkInterceptor {}
private struct RetryInterceptor: NetworkInterceptor { let maxRetries: Int }

private protocol NetworkService: Sendable {}
private struct HTTPNetworkService: NetworkService {
    let baseURL: String
    let timeout: TimeInterval
    let interceptors: [NetworkInterceptor]
}

private protocol CacheService: Sendable {}
private struct MemoryCacheService: CacheService {}

private protocol UserRepository: Sendable {}
private struct UserRepositoryImpl: UserRepository {
    let database: DatabaseService
    let logger: Logger?
}
private struct DefaultUserRepository: UserRepository {}

private protocol BookRepository: Sendable {}
private struct BookRepositoryImpl: BookRepository {}
private struct CachedBookRepository: BookRepository {
    let baseRepository: BookRepository
    let cache: CacheService
}

private protocol AuthRepository: Sendable {}
private struct DefaultAuthRepository: AuthRepository {}

private protocol LoginUseCase: Sendable {}
private struct LoginUseCaseImpl: LoginUseCase {
    let repository: AuthRepository
    let logger: Logger?
}

private protocol UserProfileUseCase: Sendable {}
private struct UserProfileUseCaseImpl: UserProfileUseCase { let repository: UserRepository }

private final class SessionContext: Sendable {}

private protocol LoginViewModel: Sendable {}
private struct LoginViewModelImpl: LoginViewModel { let useCase: LoginUseCase }

// MARK: The app's factories

/// The guide's "Custom Specialized Factories" infrastructure factory.
private struct InfrastructureModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup(for environment: Environment, config: AppConfiguration) {
        let registerModule = self.registerModule
        let interceptors = createInterceptors(for: environment)
        let stagingDBPath = config.stagingDBPath
        let productionDBConfig = config.productionDBConfig
        let apiBaseURL = config.apiBaseURL
        let networkTimeout = config.networkTimeout
        let logPath = config.logPath
        let logEndpoint = config.logEndpoint

        // Database setup
        definitions.append {
            registerModule.makeModule(DatabaseService.self) {
                switch environment {
                case .development:
                    return InMemoryDatabaseService()
                case .staging:
                    return SQLiteDatabaseService(path: stagingDBPath)
                case .production:
                    return PostgreSQLDatabaseService(config: productionDBConfig)
                }
            }
        }

        // Network setup
        definitions.append {
            registerModule.makeModule(NetworkService.self) {
                HTTPNetworkService(
                    baseURL: apiBaseURL,
                    timeout: networkTimeout,
                    interceptors: interceptors
                )
            }
        }

        // Logging setup
        definitions.append {
            registerModule.makeModule(Logger.self) {
                switch environment {
                case .development:
                    return ConsoleLogger(level: .debug)
                case .staging:
                    return FileLogger(level: .info, path: logPath)
                case .production:
                    return RemoteLogger(level: .error, endpoint: logEndpoint)
                }
            }
        }
    }

    private func createInterceptors(for environment: Environment) -> [NetworkInterceptor] {
        var interceptors: [NetworkInterceptor] = []

        // Add auth interceptor
        interceptors.append(AuthInterceptor())

        // Add logging in non-production
        if environment != .production {
            interceptors.append(LoggingInterceptor())
        }

        // Add retry interceptor
        interceptors.append(RetryInterceptor(maxRetries: 3))

        return interceptors
    }

    func makeAllModules() -> [Module] {
        definitions.map { $0() }
    }
}

/// The app's presentation factory (the guide uses one without showing it).
private struct PresentationModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(LoginViewModel.self) {
                LoginViewModelImpl(useCase: WeaveDI.Container.shared.resolve(LoginUseCase.self)!)
            }
        }
    }

    func makeAllModules() -> [Module] {
        definitions.map { $0() }
    }
}

// Adaptation: the manager makes these two with `init()`.
extension InfrastructureModuleFactory: LayerModuleFactory {}
extension PresentationModuleFactory: LayerModuleFactory {}

/// The guide's repository definitions, on the built-in factory.
extension RepositoryModuleFactory {
    fileprivate mutating func setup() {
        let registerModule = self.registerModule
        // User repository with database dependency
        definitions.append {
            registerModule.makeModule(UserRepository.self) {
                UserRepositoryImpl(
                    database: WeaveDI.Container.shared.resolve(DatabaseService.self)!,
                    logger: WeaveDI.Container.shared.resolve(Logger.self)
                )
            }
        }

        // Book repository with caching
        definitions.append {
            registerModule.makeModule(BookRepository.self) {
                CachedBookRepository(
                    baseRepository: BookRepositoryImpl(),
                    cache: WeaveDI.Container.shared.resolve(CacheService.self) ?? MemoryCacheService()
                )
            }
        }

        definitions.append {
            registerModule.makeModule(AuthRepository.self) { DefaultAuthRepository() }
        }
    }
}

/// The guide's use-case definitions, on the built-in factory.
extension UseCaseModuleFactory {
    fileprivate mutating func setup() {
        // Authentication UseCase with Repository dependency
        definitions.append(
            registerModule.makeUseCaseWithRepository(
                LoginUseCase.self,
                repositoryProtocol: AuthRepository.self,
                repositoryFallback: DefaultAuthRepository(),
                factory: { repository in
                    LoginUseCaseImpl(
                        repository: repository,
                        logger: WeaveDI.Container.shared.resolve(Logger.self)
                    )
                }
            )
        )

        // User Management UseCase
        definitions.append(
            registerModule.makeUseCaseWithRepository(
                UserProfileUseCase.self,
                repositoryProtocol: UserRepository.self,
                repositoryFallback: DefaultUserRepository(),
                factory: { repository in
                    UserProfileUseCaseImpl(repository: repository)
                }
            )
        )
    }
}

extension ScopeModuleFactory {
    fileprivate mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(SessionContext.self) { SessionContext() }
        }
    }
}

// Adaptation: the body of the guide's `setupAllFactories()`, which WeaveDI's manager calls.
extension AppConfiguration: ModuleFactoryConfiguration {
    func setUpFactories(
        infrastructure: inout InfrastructureModuleFactory,
        repository: inout RepositoryModuleFactory,
        useCase: inout UseCaseModuleFactory,
        scope: inout ScopeModuleFactory,
        presentation: inout PresentationModuleFactory,
        for environment: Environment
    ) {
        // Setup in dependency order
        infrastructure.setup(for: environment, config: self)
        repository.setup()
        useCase.setup()
        scope.setup()
        presentation.setup()
    }
}

// MARK: The guide's call sites, unchanged

// Usage
private func setupApplication() async throws {
    var manager = ModuleFactoryManager(
        environment: .production,
        configuration: try AppConfiguration.load(),
        logger: ConsoleLogger()
    )

    await manager.setupAllFactories()
    try await manager.registerAll()

    let stats = manager.getRegistrationStatistics()
    print("🎯 Registered \(stats.totalModules) modules across \(5) factories")
}

/// The guide's SwiftUI app, without SwiftUI: its state and `initializeApplication()`.
@MainActor
private final class EnterpriseWeaveDIApp {
    var isInitialized = false
    var initializationError: Error?
    var registeredModules = 0

    func initializeApplication() async {
        do {
            let startTime = Date()
            print("🚀 Starting application initialization...")

            // Setup module factory manager
            var manager = ModuleFactoryManager(
                environment: AppEnvironment.current,
                configuration: try AppConfiguration.load(),
                logger: AppLogger.shared
            )

            // Setup all factories
            await manager.setupAllFactories()

            // Register all modules
            try await manager.registerAll()

            // Verify critical dependencies
            try await verifyCriticalDependencies()

            let initTime = Date().timeIntervalSince(startTime)
            print("✅ Application initialized in \(String(format: "%.2f", initTime))s")

            // Show statistics
            let stats = manager.getRegistrationStatistics()
            print("📊 Modules registered: \(stats.totalModules)")
            registeredModules = stats.totalModules

            isInitialized = true
        } catch {
            print("❌ Application initialization failed: \(error)")
            initializationError = error
        }
    }

    private func verifyCriticalDependencies() async throws {
        // Verify essential services are available (AuthenticationService comes from the guide's
        // async modules, not set up here)
        let criticalServices: [Any.Type] = [
            DatabaseService.self,
            NetworkService.self,
            Logger.self,
            UserRepository.self,
        ]

        for serviceType in criticalServices {
            let resolved = WeaveDI.Container.shared.resolve(serviceType)
            guard resolved != nil else {
                throw InitializationError.criticalServiceMissing(String(describing: serviceType))
            }
        }

        print("✅ All critical dependencies verified")
    }
}

/// The guide's UIKit scene delegate's module handling.
@MainActor
private final class SceneDelegate {
    private var moduleManager: ModuleFactoryManager?
    var failure: Error?

    var storedManager: ModuleFactoryManager? { moduleManager }

    func initializeModuleSystem() async {
        do {
            print("🏭 Initializing module factory system...")

            // Create and setup module manager
            var manager = ModuleFactoryManager(
                environment: AppEnvironment.current,
                configuration: try AppConfiguration.load(),
                logger: AppLogger.shared
            )

            self.moduleManager = manager

            // Setup factories
            await manager.setupAllFactories()

            // Register all modules
            try await manager.registerAll()
        } catch {
            failure = error
        }
    }
}

/// The guide's `errorDescription` switch, on WeaveDI's error (its extra details ignored).
private func guideDescription(_ error: ModuleFactoryError) -> String? {
    switch error {
    case .noModulesFound:
        return "No modules found in any factory"
    case .duplicateModule(let typeName, _, _):
        return "Duplicate module registration for type: \(typeName)"
    case .invalidConfiguration:
        return "Invalid factory configuration"
    default:
        return error.errorDescription
    }
}

// MARK: Configurations for the behaviour tests

/// Sets the layers up last to first, each with one module, and only after a suspension.
private struct ReversedConfiguration: ModuleFactoryConfiguration {
    func setUpFactories(
        infrastructure: inout InfrastructureModuleFactory,
        repository: inout RepositoryModuleFactory,
        useCase: inout UseCaseModuleFactory,
        scope: inout ScopeModuleFactory,
        presentation: inout PresentationModuleFactory,
        for environment: Environment
    ) async {
        await Task.yield()
        presentation.definitions.append { Module(String.self, name: "presentation") { "presentation" } }
        scope.definitions.append { Module(String.self, name: "scope") { "scope" } }
        useCase.definitions.append { Module(String.self, name: "useCase") { "useCase" } }
        repository.definitions.append { Module(String.self, name: "repository") { "repository" } }
        infrastructure.definitions.append { Module(String.self, name: "infrastructure") { "\(environment)" } }
    }
}

/// Defines nothing for any environment.
private struct EmptyConfiguration: ModuleFactoryConfiguration {
    func setUpFactories(
        infrastructure: inout InfrastructureModuleFactory,
        repository: inout RepositoryModuleFactory,
        useCase: inout UseCaseModuleFactory,
        scope: inout ScopeModuleFactory,
        presentation: inout PresentationModuleFactory,
        for environment: Environment
    ) {}
}

/// Defines the same type in the infrastructure and presentation layers.
private struct ConflictingConfiguration: ModuleFactoryConfiguration {
    func setUpFactories(
        infrastructure: inout InfrastructureModuleFactory,
        repository: inout RepositoryModuleFactory,
        useCase: inout UseCaseModuleFactory,
        scope: inout ScopeModuleFactory,
        presentation: inout PresentationModuleFactory,
        for environment: Environment
    ) {
        infrastructure.definitions.append { Module(CacheService.self) { MemoryCacheService() } }
        presentation.definitions.append { Module(CacheService.self) { MemoryCacheService() } }
    }
}

@Suite("Modules: the guide's ModuleFactoryManager", .capturesLog)
struct ModulesGuideManagerTests {
    @Test("the guide's setupApplication() registers every layer for production into Container.shared")
    func guideSetupApplication() async throws {
        let container = Container()
        try await Container.withShared(container) { try await setupApplication() }

        #expect(container.registrations.count == 10)
        let database = container.resolve(DatabaseService.self)
        #expect(database?.location == "postgres:db.example.com")
        #expect(container.resolve(Logger.self) is RemoteLogger)
        let network = container.resolve(NetworkService.self) as? HTTPNetworkService
        #expect(network?.interceptors.contains { $0 is LoggingInterceptor } == false)
        #expect(container.isRegistered(SessionContext.self))
        #expect(container.registrations.first { $0.type == SessionContext.self }?.scope == .request)
    }

    @Test("the guide's SwiftUI initializeApplication() runs: factories set up, registered, critical services verified")
    @MainActor
    func guideSwiftUIInitialization() async throws {
        let container = Container()
        let app = EnterpriseWeaveDIApp()
        let login = await Container.withShared(container) {
            await app.initializeApplication()
            // Its factory resolves the use case from `Container.shared`.
            return container.resolve(LoginViewModel.self) as? LoginViewModelImpl
        }
        #expect(app.initializationError == nil)
        #expect(app.isInitialized)
        #expect(app.registeredModules == 10)
        // AppEnvironment.current is .staging.
        #expect(container.resolve(DatabaseService.self)?.location == "sqlite:/var/db/staging.sqlite")
        #expect(login?.useCase is LoginUseCaseImpl)
    }

    @Test("the guide's UIKit flow: the manager is stored as ModuleFactoryManager?; the stored copy predates setup")
    @MainActor
    func guideUIKitInitialization() async throws {
        let container = Container()
        let delegate = SceneDelegate()
        await Container.withShared(container) { await delegate.initializeModuleSystem() }
        #expect(delegate.failure == nil)
        #expect(container.registrations.count == 10)
        // A value: the copy stored before setupAllFactories() has empty factories and registered nothing.
        let stored = try #require(delegate.storedManager)
        #expect(stored.makeAllModules().isEmpty)
        #expect(!stored.getRegistrationStatistics().isRegistered)
    }

    @Test("setupAllFactories() sets the factories up for the environment given", arguments: Environment.allCases)
    fileprivate func setupFollowsEnvironment(_ environment: Environment) async throws {
        var manager = ModuleFactoryManager(environment: environment, configuration: try AppConfiguration.load())
        #expect(manager.makeAllModules().isEmpty, "nothing is defined before setupAllFactories()")
        await manager.setupAllFactories()
        #expect(manager.infrastructureFactory.definitions.count == 3)
        #expect(manager.repositoryFactory.definitions.count == 3)
        #expect(manager.useCaseFactory.definitions.count == 2)
        #expect(manager.scopeFactory.definitions.count == 1)
        #expect(manager.presentationFactory.definitions.count == 1)
        #expect(manager.infrastructureFactory is InfrastructureModuleFactory)
        #expect(manager.presentationFactory is PresentationModuleFactory)

        let container = Container()
        try await manager.registerAll(to: container)
        let database = container.resolve(DatabaseService.self)
        let logger = container.resolve(Logger.self)
        let network = container.resolve(NetworkService.self) as? HTTPNetworkService
        switch environment {
        case .development:
            #expect(database is InMemoryDatabaseService)
            #expect((logger as? ConsoleLogger)?.level == .debug)
        case .staging:
            #expect(database?.location == "sqlite:/var/db/staging.sqlite")
            #expect((logger as? FileLogger)?.path == "/var/log/app.log")
        case .production:
            #expect(database?.location == "postgres:db.example.com")
            #expect((logger as? RemoteLogger)?.endpoint == "https://logs.example.com")
        }
        #expect(network?.baseURL == "https://api.example.com")
        #expect(network?.interceptors.contains { $0 is LoggingInterceptor } == (environment != .production))
    }

    @Test("getRegistrationStatistics() counts what registerAll registered, per layer, and nothing before")
    func statisticsCountRegistrations() async throws {
        var manager = ModuleFactoryManager(environment: .development, configuration: try AppConfiguration.load())
        await manager.setupAllFactories()

        let before = manager.getRegistrationStatistics()
        #expect(!before.isRegistered)
        #expect(before.totalModules == 0)
        #expect(before.factories.allSatisfy { $0.moduleCount == 0 })
        #expect(manager.makeAllModules().count == 10, "what would be registered")

        let container = Container()
        let returned = try await manager.registerAll(to: container)
        let stats = manager.getRegistrationStatistics()
        #expect(stats.isRegistered)
        #expect(stats.infrastructureModules == 3)
        #expect(stats.repositoryModules == 3)
        #expect(stats.useCaseModules == 2)
        #expect(stats.scopeModules == 1)
        #expect(stats.presentationModules == 1)
        #expect(stats.serviceModules == 0)
        #expect(stats.totalModules == 10)
        #expect(stats.totalModules == container.registrations.count)
        #expect(returned.totalModules == stats.totalModules)
        #expect(
            stats.factories.map(\.name) == [
                "InfrastructureModuleFactory", "RepositoryModuleFactory", "UseCaseModuleFactory",
                "ScopeModuleFactory", "PresentationModuleFactory",
            ])

        // Defining more afterwards changes what would be registered, not what was.
        manager.repositoryFactory.definitions.append { Module(Int.self) { 1 } }
        #expect(manager.getRegistrationStatistics().repositoryModules == 3)

        // A failed registration keeps the statistics of the last successful one.
        manager.batchSize = 0
        await #expect(throws: ModuleFactoryError.self) { try await manager.registerAll(to: Container()) }
        #expect(manager.getRegistrationStatistics().totalModules == 10)
    }

    @Test("layers are registered infrastructure, repository, use case, scope, presentation, whatever the setup order")
    func layerOrder() async throws {
        var manager = ModuleFactoryManager(environment: .staging, configuration: ReversedConfiguration())
        await manager.setupAllFactories()
        let expected = ["infrastructure", "repository", "useCase", "scope", "presentation"]
        #expect(manager.makeAllModules().compactMap(\.name) == expected)
        let container = Container()
        try await manager.registerAll(to: container)
        #expect(container.registrations.compactMap(\.name) == expected)
        #expect(container.resolve("infrastructure", String.self) == "staging")
        #expect(
            manager.getRegistrationStatistics().factories.map(\.layer) == [
                .infrastructure, .repository, .useCase, .scope, .presentation,
            ])
    }

    @Test("the logger hears setup, counts, validation, each batch, each module and completion")
    func loggerHearsEverything() async throws {
        let logger = AppLogger()
        var manager = ModuleFactoryManager(
            environment: .production, configuration: try AppConfiguration.load(), logger: logger)
        manager.batchSize = 2
        await manager.setupAllFactories()
        try await manager.registerAll(to: Container())

        let info = logger.book.messages(at: .info)
        #expect(info.first == "🏭 Setting up module factories for production")
        #expect(
            info.contains {
                $0.hasPrefix("✅ All factories configured for production") && $0.contains("RepositoryModuleFactory 3")
            })
        #expect(info.contains("📊 Found 10 modules to register from 5 factories"))
        #expect(info.contains("✅ Module validation passed"))
        // 3 + 3 + 2 + 1 + 1 modules in batches of 2: 2 + 2 + 1 + 1 + 1 batches.
        #expect(info.filter { $0.hasPrefix("📦 Registering ") && $0.contains("batch") }.count == 7)
        #expect(info.contains("📦 Registering InfrastructureModuleFactory (infrastructure): batch 2/2"))
        #expect(info.last?.hasPrefix("🎉 Module registration completed successfully") == true)
        let debug = logger.book.messages(at: .debug)
        #expect(debug.count == 10)
        #expect(debug.contains { $0.hasPrefix("✅ Registered: Module(") && $0.contains("DatabaseService") })
    }

    @Test("registerAll() before setupAllFactories() is noModulesFound; the container is untouched")
    func registerBeforeSetup() async throws {
        var manager = ModuleFactoryManager(environment: .production, configuration: try AppConfiguration.load())
        let container = Container()
        do {
            try await manager.registerAll(to: container)
            Issue.record("expected noModulesFound")
        } catch let error as ModuleFactoryError {
            guard case .noModulesFound = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.localizedDescription.contains("setupAllFactories()"))
            #expect(guideDescription(error) == "No modules found in any factory")
        }
        #expect(container.registrations.isEmpty)

        // A configuration that defines nothing for the environment: the same.
        var empty = ModuleFactoryManager(environment: .development, configuration: EmptyConfiguration())
        await empty.setupAllFactories()
        await #expect(throws: ModuleFactoryError.self) { try await empty.registerAll(to: container) }
    }

    @Test("setupAllFactories() twice defines every module twice: duplicateModule saying so, nothing registered")
    func setupTwice() async throws {
        var manager = ModuleFactoryManager(environment: .production, configuration: try AppConfiguration.load())
        await manager.setupAllFactories()
        await manager.setupAllFactories()
        #expect(manager.infrastructureFactory.definitions.count == 6)
        let container = Container()
        do {
            try await manager.registerAll(to: container)
            Issue.record("expected duplicateModule")
        } catch let error as ModuleFactoryError {
            guard case .duplicateModule(let type, let first, let second) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(type.contains("DatabaseService"))
            #expect(first == second)
            #expect(first.factory == "InfrastructureModuleFactory")
            #expect(error.description.contains("setupAllFactories() or a factory's setup called twice"))
            #expect(guideDescription(error)?.hasPrefix("Duplicate module registration for type: ") == true)
        }
        #expect(container.registrations.isEmpty)
    }

    @Test("the same type from two layers is duplicateModule naming both factories")
    func duplicateAcrossLayers() async throws {
        var manager = ModuleFactoryManager(environment: .production, configuration: ConflictingConfiguration())
        await manager.setupAllFactories()
        let container = Container()
        do {
            try await manager.registerAll(to: container)
            Issue.record("expected duplicateModule")
        } catch let ModuleFactoryError.duplicateModule(type, first, second) {
            #expect(type.contains("CacheService"))
            #expect(first.factory == "InfrastructureModuleFactory")
            #expect(second.factory == "PresentationModuleFactory")
        }
        #expect(container.registrations.isEmpty)
    }

    @Test("a module already registered in a container that rejects duplicates is refused before anything is registered")
    func rejectingContainer() async throws {
        var manager = ModuleFactoryManager(environment: .production, configuration: try AppConfiguration.load())
        await manager.setupAllFactories()
        let container = Container()
        container.duplicatePolicy = .reject
        let line = #line + 1
        container.register(CacheService.self) { MemoryCacheService() }
        container.register(BookRepository.self) { BookRepositoryImpl() }
        do {
            try await manager.registerAll(to: container)
            Issue.record("expected duplicateModule")
        } catch let error as ModuleFactoryError {
            guard case .duplicateModule(let type, let first, let second) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(type.contains("BookRepository"))
            #expect(first.site.line == line + 1)
            #expect(second.factory == "RepositoryModuleFactory")
            #expect(error.description.contains("duplicatePolicy is .reject"))
        }
        #expect(container.registrations.count == 2, "nothing of the manager's was registered")
        #expect(manager.getRegistrationStatistics().totalModules == 0)

        // Replacing (the default policy) is registering: counted.
        let replacing = Container()
        replacing.register(BookRepository.self) { BookRepositoryImpl() }
        try await manager.registerAll(to: replacing)
        #expect(manager.getRegistrationStatistics().repositoryModules == 3)
        #expect(replacing.resolve(BookRepository.self) is CachedBookRepository)
    }

    @Test("a batch size below one is invalidConfiguration, as the guide's switch matches it")
    func invalidConfiguration() async throws {
        var manager = ModuleFactoryManager(environment: .production, configuration: try AppConfiguration.load())
        await manager.setupAllFactories()
        manager.batchSize = 0
        do {
            try await manager.registerAll(to: Container())
            Issue.record("expected invalidConfiguration")
        } catch let error as ModuleFactoryError {
            #expect(guideDescription(error) == "Invalid factory configuration")
            #expect(error.localizedDescription.contains("batchSize"))
        }
    }

    @Test(
        "a manager made without a configuration: setupAllFactories() changes nothing, no infrastructure or presentation listed"
    )
    func unconfiguredManager() async throws {
        var manager = ModuleFactoryManager()
        manager.repositoryFactory.definitions.append { Module(Int.self) { 1 } }
        await manager.setupAllFactories()
        #expect(manager.makeAllModules().count == 1)
        #expect(manager.infrastructureFactory.definitions.isEmpty)
        #expect(manager.presentationFactory.definitions.isEmpty)
        #expect(
            manager.getRegistrationStatistics().factories.map(\.name) == [
                "RepositoryModuleFactory", "UseCaseModuleFactory", "ScopeModuleFactory",
            ])
    }

    @Test("factories added to a configured manager register in their layer among the configured ones")
    func addedFactoriesJoinTheirLayer() async throws {
        var manager = ModuleFactoryManager(environment: .staging, configuration: ReversedConfiguration())
        await manager.setupAllFactories()
        var services = InfrastructureModuleFactory()
        services.definitions.append { Module(String.self, name: "service") { "service" } }
        manager.add(services, layer: .service, name: "ServiceModuleFactory")
        let container = Container()
        try await manager.registerAll(to: container)
        #expect(
            container.registrations.compactMap(\.name) == [
                "infrastructure", "repository", "useCase", "service", "scope", "presentation",
            ])
        #expect(manager.getRegistrationStatistics().serviceModules == 1)
        #expect(manager.getRegistrationStatistics().totalModules == 6)
    }
}
