// The Module Factory guide's app with WeaveDI's ModuleFactoryManager in place of its own copy.
import Foundation
import WeaveDI

// snippet.hide
protocol DatabaseService: Sendable {}
struct InMemoryDatabaseService: DatabaseService {}
struct SQLiteDatabaseService: DatabaseService { let path: String }
protocol NetworkService: Sendable {}
struct HTTPNetworkService: NetworkService { let baseURL: String }
protocol UserRepository: Sendable {}
struct UserRepositoryImpl: UserRepository { let database: any DatabaseService }
protocol AuthRepository: Sendable {}
struct DefaultAuthRepository: AuthRepository {}
protocol LoginUseCase: Sendable {}
struct LoginUseCaseImpl: LoginUseCase { let repository: any AuthRepository }
final class SessionContext: Sendable {}
protocol LoginViewModel: Sendable {}
struct LoginViewModelImpl: LoginViewModel { let useCase: any LoginUseCase }
// snippet.show

// snippet.appTypes
enum Environment: Sendable {
    case development, staging, production
}

struct AppConfiguration {
    let stagingDBPath: String
    let apiBaseURL: String

    static func load() throws -> AppConfiguration {
        AppConfiguration(stagingDBPath: "/var/db/staging.sqlite", apiBaseURL: "https://api.example.com")
    }
}

// Your logger: a ModuleFactoryLogger as soon as it has info(_:) and debug(_:).
protocol Logger: ModuleFactoryLogger {}

struct ConsoleLogger: Logger {
    func info(_ message: String) { print(message) }
    func debug(_ message: String) {}
}
// snippet.end

// snippet.appFactories
// Your own infrastructure and presentation factories, unchanged but for `LayerModuleFactory`
// (a ModuleFactory the manager can make with `init()`).
struct InfrastructureModuleFactory: LayerModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup(for environment: Environment, config: AppConfiguration) {
        let registerModule = self.registerModule
        let stagingDBPath = config.stagingDBPath
        let apiBaseURL = config.apiBaseURL
        definitions.append {
            registerModule.makeModule(DatabaseService.self, scope: .singleton) {
                switch environment {
                case .development: InMemoryDatabaseService()
                case .staging, .production: SQLiteDatabaseService(path: stagingDBPath)
                }
            }
        }
        definitions.append {
            registerModule.makeModule(NetworkService.self) { HTTPNetworkService(baseURL: apiBaseURL) }
        }
    }
}

struct PresentationModuleFactory: LayerModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(LoginViewModel.self, dependencies: [LoginUseCase.self]) {
                LoginViewModelImpl(useCase: try UnifiedDI.resolveOrThrow(LoginUseCase.self))
            }
        }
    }
}

// Repository, use-case and scope definitions go on WeaveDI's built-in factories.
extension RepositoryModuleFactory {
    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(UserRepository.self, dependencies: [DatabaseService.self]) {
                UserRepositoryImpl(database: try UnifiedDI.resolveOrThrow(DatabaseService.self))
            }
        }
    }
}

extension UseCaseModuleFactory {
    mutating func setup() {
        definitions.append(
            registerModule.makeUseCaseWithRepository(
                LoginUseCase.self,
                repositoryProtocol: AuthRepository.self,
                repositoryFallback: DefaultAuthRepository(),
                factory: { repository in LoginUseCaseImpl(repository: repository) }
            )
        )
    }
}

extension ScopeModuleFactory {
    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(SessionContext.self) { SessionContext() }
        }
    }
}
// snippet.end

// snippet.configuration
// What your manager's setupAllFactories() did, for the environment it was made with.
extension AppConfiguration: ModuleFactoryConfiguration {
    func setUpFactories(
        infrastructure: inout InfrastructureModuleFactory,
        repository: inout RepositoryModuleFactory,
        useCase: inout UseCaseModuleFactory,
        scope: inout ScopeModuleFactory,
        presentation: inout PresentationModuleFactory,
        for environment: Environment
    ) {
        infrastructure.setup(for: environment, config: self)
        repository.setup()
        useCase.setup()
        scope.setup()
        presentation.setup()
    }
}
// snippet.end

// snippet.usage
func setupApplication() async throws {
    var manager = ModuleFactoryManager(
        environment: .production,
        configuration: try AppConfiguration.load(),
        logger: ConsoleLogger()
    )

    await manager.setupAllFactories()
    try await manager.registerAll()

    let stats = manager.getRegistrationStatistics()
    print("🎯 Registered \(stats.totalModules) modules across \(stats.factories.count) factories")
    print(
        "   infrastructure \(stats.infrastructureModules), repositories \(stats.repositoryModules), "
            + "use cases \(stats.useCaseModules), scoped \(stats.scopeModules), presentation \(stats.presentationModules)"
    )
}
// snippet.end

// snippet.errors
func describe(_ error: ModuleFactoryError) -> String {
    switch error {
    case .noModulesFound:
        return "No modules found in any factory"
    case .duplicateModule(let typeName, _, _): // then: first and second, two Origins
        return "Duplicate module registration for type: \(typeName)"
    case .invalidConfiguration: // carries a detail: .invalidConfiguration(let detail)
        return "Invalid factory configuration"
    case .invalidModule, .missingDependency:
        return error.description
    }
}
// snippet.end

// snippet.hide
do {
    try await setupApplication()
} catch let error as ModuleFactoryError {
    print(describe(error))
}
print(UnifiedDI.resolve(LoginViewModel.self) != nil)
