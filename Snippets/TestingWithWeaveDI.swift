// Tests that swap dependencies without seeing each other's, so they run in parallel.
import Testing
import WeaveDI
import WeaveDITesting

// snippet.hide
struct User: Sendable, Equatable {
    let id: String
    let name: String
}
protocol UserRepository: Sendable { func fetchUser(id: String) async throws -> User }
struct MockUserRepository: UserRepository {
    func fetchUser(id: String) async throws -> User { User(id: id, name: "Test User") }
}
protocol APIClient: Sendable { func fetchUser(id: String) async throws -> User }
struct LiveAPIClient: APIClient {
    func fetchUser(id: String) async throws -> User { User(id: id, name: "Live User") }
}
struct MockAPIClient: APIClient {
    var name = "Mock User"
    func fetchUser(id: String) async throws -> User { User(id: id, name: name) }
}
struct APIClientKey: InjectedKey {
    static let liveValue: any APIClient = LiveAPIClient()
}
extension InjectedValues {
    var apiClient: any APIClient {
        get { self[APIClientKey.self] }
        set { self[APIClientKey.self] = newValue }
    }
}
struct UserService {
    @Injected(\.apiClient) var apiClient
    func fetchUser(id: String) async throws -> User { try await apiClient.fetchUser(id: id) }
}
@MainActor
final class UserViewModel {
    @Inject var repository: (any UserRepository)?
    var user: User?
    func loadUser(id: String) async { user = try? await repository?.fetchUser(id: id) }
}
// snippet.show

// snippet.containerTrait
// Each test gets a new, empty container as `Container.shared`, configured by the closure.
@Test(
    .container { container in
        container.register(UserRepository.self) { MockUserRepository() }
    })
@MainActor
func loadsTheUser() async {
    let viewModel = UserViewModel()
    await viewModel.loadUser(id: "1")
    #expect(viewModel.user?.name == "Test User")
}
// snippet.end

// snippet.injectedValuesTrait
@Test(.injectedValues { $0.apiClient = MockAPIClient(name: "Trait User") })
func fetchesThroughTheOverride() async throws {
    let user = try await UserService().fetchUser(id: "123")
    #expect(user.name == "Trait User")
}
// snippet.end

// snippet.withInjectedValues
@Test func overridesForOneBlock() async throws {
    let user = try await withInjectedValues { values in
        values.apiClient = MockAPIClient(name: "Block User")
    } operation: {
        try await UserService().fetchUser(id: "123")
    }
    #expect(user.name == "Block User")
}
// snippet.end

// snippet.withShared
@Test func usesAContainerOfItsOwn() async throws {
    let container = WeaveDI.Container()
    container.register(UserRepository.self) { MockUserRepository() }

    try await WeaveDI.Container.withShared(container) {
        // UnifiedDI, the property wrappers and Factory keys all see `container` here.
        let repository = try UnifiedDI.resolveOrThrow(UserRepository.self)
        #expect(try await repository.fetchUser(id: "7").name == "Test User")
    }
}
// snippet.end

// snippet.contextsTrait
/// Resolves `APIClient` from a container with a live and a `.test` registration.
func appClient() throws -> any APIClient {
    let container = WeaveDI.Container()
    container.register(APIClient.self) { LiveAPIClient() }
    container.register(APIClient.self, in: .test) { MockAPIClient() }
    return try container.resolveOrThrow(APIClient.self)
}

// Forced for this test's task only: parallel tests keep their own contexts.
@Test(.contexts(disabling: [.test]))
func usesTheLiveClient() async throws {
    #expect(try await appClient().fetchUser(id: "1").name == "Live User")
}

@Test(.contexts([.test], exclusively: true))
func usesTheTestClient() async throws {
    #expect(try await appClient().fetchUser(id: "1").name == "Mock User")
}
// snippet.end

// snippet.validate
@Test func theWiringIsComplete() throws {
    let container = WeaveDI.Container()
    container.register(APIClient.self) { MockAPIClient() }
    container.register(UserRepository.self) { MockUserRepository() }

    // Throws a ValidationError listing every missing dependency, cycle, captive dependency and
    // failing factory at once.
    try container.validateOrThrow()
}
// snippet.end
