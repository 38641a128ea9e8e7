// WeaveDI in an MVVM / Clean Architecture app: property wrappers, registerMany, scopes.
import Foundation
import WeaveDI

// snippet.hide
struct User: Sendable, Equatable {
    let id: String
    let name: String
    let email: String
}
protocol APIService: Sendable { func fetchUser(id: String) async throws -> User }
struct URLSessionAPIService: APIService {
    func fetchUser(id: String) async throws -> User { User(id: id, name: "Ada", email: "ada@example.com") }
}
protocol CacheService: Sendable {
    func user(id: String) -> User?
    func store(_ user: User)
}
final class MemoryCacheService: CacheService, @unchecked Sendable {
    private let lock = NSLock()
    private var users: [String: User] = [:]
    func user(id: String) -> User? { lock.withLock { users[id] } }
    func store(_ user: User) { lock.withLock { users[user.id] = user } }
}
protocol LoggerProtocol: Sendable {
    func info(_ message: String)
    func error(_ message: String)
}
struct PrintLogger: LoggerProtocol {
    func info(_ message: String) { print("info:", message) }
    func error(_ message: String) { print("error:", message) }
}
protocol AnalyticsService: Sendable { func track(_ event: String) }
struct FirebaseAnalytics: AnalyticsService { func track(_ event: String) {} }
struct NoOpAnalytics: AnalyticsService { func track(_ event: String) {} }
enum AppError: Error { case repositoryNotAvailable }
let isDebug = true
// snippet.show

// snippet.repository
protocol UserRepository: Sendable {
    func fetchUser(id: String) async throws -> User
}

struct UserRepositoryImpl: UserRepository {
    @Inject var apiService: (any APIService)?
    @Inject var cacheService: (any CacheService)?

    func fetchUser(id: String) async throws -> User {
        if let cached = cacheService?.user(id: id) { return cached }
        guard let api = apiService else {
            throw DIError.dependencyNotFound(APIService.self)
        }
        let user = try await api.fetchUser(id: id)
        cacheService?.store(user)
        return user
    }
}
// snippet.end

// snippet.viewModel
@MainActor
final class UserViewModel {
    private(set) var user: User?
    private(set) var errorMessage: String?

    @Inject var userRepository: (any UserRepository)?
    @RequiredInject var logger: any LoggerProtocol

    func loadUser(id: String) async {
        errorMessage = nil
        do {
            guard let repository = userRepository else { throw AppError.repositoryNotAvailable }
            user = try await repository.fetchUser(id: id)
            logger.info("User loading completed: \(id)")
        } catch {
            errorMessage = "\(error)"
            logger.error("User loading failed: \(error)")
        }
    }
}
// snippet.end

// snippet.registerMany
UnifiedDI.registerMany {
    // Data layer
    Registration(UserRepository.self) { UserRepositoryImpl() }

    // Infrastructure
    Registration(APIService.self) { URLSessionAPIService() }
    Registration(CacheService.self, scope: .singleton) { MemoryCacheService() }

    // Cross-cutting concerns
    Registration(LoggerProtocol.self, default: PrintLogger())
    Registration(
        AnalyticsService.self, condition: !isDebug,
        factory: { FirebaseAnalytics() },
        fallback: { NoOpAnalytics() })
}
// snippet.end

// snippet.scopes
final class RequestContext: Sendable {
    let requestID = UUID()
}

UnifiedDI.register(RequestContext.self, scope: .request) { RequestContext() }

let container = WeaveDI.Container.shared
let (first, second) = container.withScope(.request) {
    (container.resolve(RequestContext.self), container.resolve(RequestContext.self))
}
// Within one request, one instance; the next request gets its own.
let third = container.withScope(.request) { container.resolve(RequestContext.self) }
print(first === second, first === third) // true false
// snippet.end

// snippet.hide
let viewModel = UserViewModel()
await viewModel.loadUser(id: "1")
print(viewModel.user?.name ?? "none")
