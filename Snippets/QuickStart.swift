// The README's quick start: register, resolve, an InjectedValues key, the property wrappers and
// one test with a trait. DocumentationTests checks that the README shows these slices verbatim.
import Testing
import WeaveDI
import WeaveDITesting

// snippet.hide
protocol Database: Sendable { func userNames() -> [String] }
struct SQLiteDatabase: Database {
    let path: String
    func userNames() -> [String] { ["Ada", "Grace"] }
}
protocol UserRepository: Sendable { func allNames() -> [String] }
struct DatabaseUserRepository: UserRepository {
    let database: any Database
    func allNames() -> [String] { database.userNames() }
}
struct InMemoryUserRepository: UserRepository {
    let names: [String]
    func allNames() -> [String] { names }
}
protocol APIClient: Sendable { func status() -> String }
struct LiveAPIClient: APIClient { func status() -> String { "online" } }
struct OfflineAPIClient: APIClient { func status() -> String { "offline" } }
// snippet.show

// snippet.register
// At launch (App.init, main.swift, an app delegate): registering is synchronous.
let container = Container.shared
container.register(Database.self, scope: .singleton) { SQLiteDatabase(path: "app.sqlite") }
container.register(UserRepository.self) { // transient: a new one per resolution
    DatabaseUserRepository(database: try container.resolveOrThrow(Database.self))
}

// Anywhere: a DIError naming the type and the fix if it cannot be built (resolve(_:) gives nil).
let repository = try container.resolveOrThrow(UserRepository.self)
// snippet.end

// snippet.key
struct APIClientKey: InjectedKey {
    static let liveValue: any APIClient = LiveAPIClient()
    static let testValue: any APIClient = OfflineAPIClient() // what test processes get
}

extension InjectedValues {
    var apiClient: any APIClient {
        get { self[APIClientKey.self] }
        set { self[APIClientKey.self] = newValue }
    }
}
// snippet.end

// snippet.wrappers
final class ProfileModel {
    @Injected(\.apiClient) var apiClient // the key's value, or a test's override
    @Inject var repository: (any UserRepository)? // resolved on first read, then kept

    func title() -> String {
        "\(repository?.allNames().first ?? "nobody") (\(apiClient.status()))"
    }
}
// snippet.end

// snippet.test
@Test(.container { $0.register(UserRepository.self) { InMemoryUserRepository(names: ["Ada"]) } })
func showsTheFirstUser() {
    #expect(ProfileModel().title() == "Ada (offline)")
}
// snippet.end

// snippet.hide
print(repository.allNames(), ProfileModel().title())
protocol UserUseCase: Sendable {}
struct UserUseCaseImpl: UserUseCase {}
protocol AnalyticsService: Sendable {}
struct FirebaseAnalytics: AnalyticsService {}
struct NoOpAnalytics: AnalyticsService {}
let isDebug = true
final class AppDatabase: Sendable {
    static func open(at path: String) async throws -> AppDatabase { AppDatabase() }
}
let path = "app.sqlite"
// snippet.show

// snippet.facade
UnifiedDI.registerMany {
    Registration(UserUseCase.self) { UserUseCaseImpl() }
    Registration(
        AnalyticsService.self, condition: !isDebug,
        factory: { FirebaseAnalytics() }, fallback: { NoOpAnalytics() })
}
let useCase = try UnifiedDI.resolveOrThrow(UserUseCase.self)
// snippet.end

// snippet.async
container.registerAsync(AppDatabase.self, scope: .singleton) {
    try await AppDatabase.open(at: path) // runs once, however many tasks ask at the same time
}
let database = try await container.resolveAsync(AppDatabase.self) // waiting tasks are suspended, not blocked
// snippet.end

// snippet.hide
print(useCase, database)
