// Organize registrations as modules made by factories, and register them all at once.
import Foundation
import WeaveDI

// snippet.hide
protocol DatabaseService: Sendable {}
struct InMemoryDatabaseService: DatabaseService {}
struct SQLiteDatabaseService: DatabaseService { let path: String }
protocol Logger: Sendable { func info(_ message: String) }
struct ConsoleLogger: Logger { func info(_ message: String) { print(message) } }
protocol UserRepository: Sendable {}
struct UserRepositoryImpl: UserRepository {
    let database: any DatabaseService
    let logger: (any Logger)?
}
protocol AuthRepository: Sendable {}
struct DefaultAuthRepository: AuthRepository {}
protocol LoginUseCase: Sendable {}
struct LoginUseCaseImpl: LoginUseCase { let repository: any AuthRepository }
struct RemoteConfiguration: Sendable {
    var featureFlags: [String] = []
    static func fetch() async throws -> RemoteConfiguration { RemoteConfiguration() }
}
// snippet.show

// snippet.repositoryFactory
extension RepositoryModuleFactory {
    mutating func setup() {
        // A `mutating` method may not capture `self` in an escaping closure: copy what the
        // definitions use into a local first.
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(UserRepository.self, dependencies: [DatabaseService.self]) {
                UserRepositoryImpl(
                    database: try UnifiedDI.resolveOrThrow(DatabaseService.self),
                    logger: UnifiedDI.resolve(Logger.self)
                )
            }
        }
    }
}
// snippet.end

// snippet.useCaseFactory
extension UseCaseModuleFactory {
    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append(
            registerModule.makeUseCaseWithRepository(
                LoginUseCase.self,
                repositoryProtocol: AuthRepository.self,
                repositoryFallback: DefaultAuthRepository(), // built only if none is registered
                factory: { repository in LoginUseCaseImpl(repository: repository) }
            )
        )
    }
}
// snippet.end

// snippet.infrastructureFactory
enum AppEnvironment: Sendable { case development, testing, production }

struct InfrastructureModuleFactory: ModuleFactory, Sendable {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup(for environment: AppEnvironment) {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(DatabaseService.self, scope: .singleton) {
                switch environment {
                case .development, .testing: InMemoryDatabaseService()
                case .production: SQLiteDatabaseService(path: "/var/lib/app/app.sqlite")
                }
            }
        }
        definitions.append {
            registerModule.makeModule(Logger.self, scope: .singleton) { ConsoleLogger() }
        }
    }
}
// snippet.end

// snippet.basicRegistration
var repositoryFactory = RepositoryModuleFactory()
repositoryFactory.setup()
let modules = repositoryFactory.makeAllModules()

await WeaveDI.Container.bootstrap { container in
    for module in modules {
        await container.register(module)
    }
}
print("✅ Registered \(modules.count) repository modules")
// snippet.end

// snippet.manager
func setupApplication() async throws {
    var manager = ModuleFactoryManager()
    manager.repositoryFactory.setup()
    manager.useCaseFactory.setup()
    var infrastructure = InfrastructureModuleFactory()
    infrastructure.setup(for: .production)
    manager.add(infrastructure, layer: .infrastructure)

    // Validates every module first (no modules at all, or two for the same type, is an error
    // naming it), then registers layer by layer, each layer concurrently in batches.
    try await manager.registerAll(to: WeaveDI.Container.shared)

    let stats = manager.getRegistrationStatistics()
    print("🎯 Registered \(stats.totalModules) modules across \(stats.factories.count) factories")
}
// snippet.end

// snippet.hide
try await setupApplication()
// snippet.show

// snippet.asyncModules
var asyncModules = AsyncModuleGroup()
asyncModules.addValue(RemoteConfiguration.self, timeout: 5, maxAttempts: 3, retryDelay: 0.5) {
    try await RemoteConfiguration.fetch()
}
let report = await asyncModules.registerAll()
for failure in report.failures {
    print("⚠️ \(failure)") // the others are registered all the same
}
// snippet.end

// snippet.timeoutAndRetry
let configuration = try await withTimeout(10) {
    try await withRetry(maxAttempts: 3, delay: 1.0) {
        try await RemoteConfiguration.fetch()
    }
}
// snippet.end

// snippet.hide
print(configuration.featureFlags, WeaveDI.Container.shared.resolve(LoginUseCase.self) != nil)
