import Foundation
import Testing
import WeaveDI

private enum Environment: CaseIterable { case development, staging, production, testing }

private struct AppConfiguration: Sendable {
    let devLogPath: String
    let stagingDBConnectionString: String
    let primaryDBConnectionString: String
}

private protocol APIClient { var baseURL: String { get } }
private struct MockAPIClient: APIClient {
    let baseURL: String
    let enableNetworkLogs: Bool
}
private struct HTTPAPIClient: APIClient {
    let baseURL: String
    let timeout: Int
}
private struct SecureHTTPAPIClient: APIClient { let baseURL: String }
private struct DeterministicMockAPIClient: APIClient { let baseURL = "mock://" }

private protocol Logger { var destination: String { get } }
private struct FileLogger: Logger { let destination: String }
private struct SilentLogger: Logger { let destination = "none" }

private protocol DatabaseService { var connection: String { get } }
private struct InMemoryDatabaseService: DatabaseService {
    let preloadTestData: Bool
    var connection: String { preloadTestData ? "memory+data" : "memory" }
}
private struct PostgreSQLDatabaseService: DatabaseService { let connection: String }

private protocol AnalyticsService {}
private struct ConsoleAnalyticsService: AnalyticsService {}

/// The Module Factory guide's `EnvironmentModuleFactory`, unchanged except for copying what the definitions capture
/// into locals (a mutating method may not capture `self` in an escaping closure).
private struct EnvironmentModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    let environment: Environment
    let configuration: AppConfiguration

    init(environment: Environment, configuration: AppConfiguration) {
        self.environment = environment
        self.configuration = configuration
    }

    mutating func setup() {
        switch environment {
        case .development:
            setupDevelopmentModules()
        case .staging:
            setupStagingModules()
        case .production:
            setupProductionModules()
        case .testing:
            setupTestingModules()
        }
    }

    private mutating func setupDevelopmentModules() {
        let registerModule = self.registerModule
        let configuration = self.configuration
        definitions.append {
            registerModule.makeModule(APIClient.self) {
                MockAPIClient(baseURL: "https://dev-api.example.com", enableNetworkLogs: true)
            }
        }
        definitions.append {
            registerModule.makeModule(Logger.self) {
                FileLogger(destination: configuration.devLogPath)
            }
        }
        definitions.append {
            registerModule.makeModule(DatabaseService.self) {
                InMemoryDatabaseService(preloadTestData: true)
            }
        }
        definitions.append {
            registerModule.makeModule(AnalyticsService.self) {
                ConsoleAnalyticsService()
            }
        }
    }

    private mutating func setupStagingModules() {
        let registerModule = self.registerModule
        let configuration = self.configuration
        definitions.append {
            registerModule.makeModule(APIClient.self) {
                HTTPAPIClient(baseURL: "https://staging-api.example.com", timeout: 30)
            }
        }
        definitions.append {
            registerModule.makeModule(DatabaseService.self) {
                PostgreSQLDatabaseService(connection: configuration.stagingDBConnectionString)
            }
        }
    }

    private mutating func setupProductionModules() {
        let registerModule = self.registerModule
        let configuration = self.configuration
        definitions.append {
            registerModule.makeModule(APIClient.self) {
                SecureHTTPAPIClient(baseURL: "https://api.example.com")
            }
        }
        definitions.append {
            registerModule.makeModule(DatabaseService.self, scope: .singleton) {
                PostgreSQLDatabaseService(connection: configuration.primaryDBConnectionString)
            }
        }
    }

    private mutating func setupTestingModules() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(APIClient.self) {
                DeterministicMockAPIClient()
            }
        }
        definitions.append {
            registerModule.makeModule(Logger.self) {
                SilentLogger()
            }
        }
        definitions.append {
            registerModule.makeModule(DatabaseService.self) {
                InMemoryDatabaseService(preloadTestData: false)
            }
        }
    }

    func makeAllModules() -> [Module] {
        definitions.map { $0() }
    }
}

@Suite("Modules: environment-specific factories")
struct ModulesEnvironmentTests {
    fileprivate static let configuration = AppConfiguration(
        devLogPath: "/tmp/dev.log", stagingDBConnectionString: "postgres://staging",
        primaryDBConnectionString: "postgres://primary")

    @Test("each environment registers its own implementations through the manager", arguments: Environment.allCases)
    fileprivate func environment(_ environment: Environment) async throws {
        var factory = EnvironmentModuleFactory(environment: environment, configuration: Self.configuration)
        factory.setup()
        var manager = ModuleFactoryManager()
        manager.add(factory, layer: .infrastructure, name: "Environment(\(environment))")
        let container = Container()
        let stats = try await manager.registerAll(to: container)

        let api = container.resolve(APIClient.self)
        let database = container.resolve(DatabaseService.self)
        switch environment {
        case .development:
            #expect(stats.infrastructureModules == 4)
            #expect(api is MockAPIClient)
            #expect(database?.connection == "memory+data")
            #expect(container.resolve(Logger.self)?.destination == "/tmp/dev.log")
            #expect(container.resolve(AnalyticsService.self) is ConsoleAnalyticsService)
        case .staging:
            #expect(stats.infrastructureModules == 2)
            #expect(api?.baseURL == "https://staging-api.example.com")
            #expect(database?.connection == "postgres://staging")
        case .production:
            #expect(stats.infrastructureModules == 2)
            #expect(api is SecureHTTPAPIClient)
            #expect(database?.connection == "postgres://primary")
            #expect(container.registrations.first { $0.type == DatabaseService.self }?.scope == .singleton)
        case .testing:
            #expect(stats.infrastructureModules == 3)
            #expect(api is DeterministicMockAPIClient)
            #expect(container.resolve(Logger.self) is SilentLogger)
            #expect(database?.connection == "memory")
        }
        #expect(stats.factories.first?.name == "Environment(\(environment))")
    }
}
