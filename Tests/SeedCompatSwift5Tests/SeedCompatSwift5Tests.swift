// Compiled in the Swift 5 language mode: the seeds' code as written, with `static var` keys of
// non-Sendable protocols, @Inject in plain classes and Factory keys of non-Sendable protocols.
import Testing
import WeaveDI
import WeaveDITestSupport

// MARK: Multi-Module Projects guide: InjectedKey conformances with stored `static var`s

public protocol APIClient {
    func request(_ path: String) -> String
}

struct URLSessionAPIClient: APIClient {
    func request(_ path: String) -> String { "live:\(path)" }
}

final class MockAPIClient: APIClient {
    var responses: [String: String]
    init(responses: [String: String] = [:]) { self.responses = responses }
    func request(_ path: String) -> String { responses[path] ?? "mock:\(path)" }
}

extension InjectedValues {
    public var apiClient: APIClient {
        get { self[APIClientKey.self] }
        set { self[APIClientKey.self] = newValue }
    }
}

public struct APIClientKey: InjectedKey {
    public static var liveValue: APIClient = URLSessionAPIClient()
    public static var testValue: APIClient = MockAPIClient()
}

protocol EventBus {
    func publish(_ event: String)
}

final class EventBusImpl: EventBus {
    private(set) var published: [String] = []
    func publish(_ event: String) { published.append(event) }
}

final class MockEventBus: EventBus {
    let onPublish: (String) -> Void
    init(onPublish: @escaping (String) -> Void = { _ in }) { self.onPublish = onPublish }
    func publish(_ event: String) { onPublish(event) }
}

extension InjectedValues {
    var eventBus: EventBus {
        get { self[EventBusKey.self] }
        set { self[EventBusKey.self] = newValue }
    }
}

struct EventBusKey: InjectedKey {
    static var liveValue: EventBus = EventBusImpl()
}

public final class UserService {
    @Injected(\.apiClient) var apiClient
    @Injected(\.eventBus) var eventBus

    public init() {}

    func fetchUser(id: String) async throws -> String {
        apiClient.request("user/\(id)")
    }

    func login() {
        eventBus.publish("UserLoggedInEvent")
    }
}

// MARK: Advanced Patterns and Practical Usage guides: @Inject and @RequiredInject in plain classes

protocol Logger {
    func info(_ message: String)
}

final class ConsoleLogger: Logger {
    private(set) var lines: [String] = []
    func info(_ message: String) { lines.append(message) }
}

protocol UserRepository {
    func name(for id: String) -> String
}

final class UserRepositoryImpl: UserRepository {
    @Inject var logger: Logger?
    func name(for id: String) -> String {
        logger?.info("fetch \(id)")
        return "user-\(id)"
    }
}

class UserViewModel {
    @Inject var userRepository: UserRepository?
    @RequiredInject var logger: Logger

    func load(id: String) -> String? {
        let name = userRepository?.name(for: id)
        logger.info("loaded \(id)")
        return name
    }
}

// MARK: The Factory multi-module article: Factory keys of non-Sendable protocols

public protocol AccountLoading {
    func load() -> [String]
}

final class AccountLoader: AccountLoading {
    func load() -> [String] { ["checking"] }
}

extension Container {
    public static let accountLoader = Factory<AccountLoading?> { nil }
    static let requiredLoader = Factory<AccountLoading> { AccountLoader() }
}

class AccountsViewModel {
    @Injected(Container.accountLoader) var loader
    var accounts: [String] = []

    func load() {
        guard let loader else { return }
        accounts = loader.load()
    }
}

@Suite("Seed code in the Swift 5 language mode", .capturesLog)
struct SeedCompatSwift5Tests {
    @Test func injectedKeysUseTestValues() async throws {
        let service = UserService()
        #expect(try await service.fetchUser(id: "1") == "mock:user/1")
    }

    @Test func withInjectedValuesAsTheSeedWritesIt() async throws {
        var orderLoadCalled = false
        try await withInjectedValues { values in
            values.apiClient = MockAPIClient(responses: ["user/123": "Test User"])
            values.eventBus = MockEventBus { event in
                if event == "UserLoggedInEvent" { orderLoadCalled = true }
            }
        } operation: {
            let service = UserService()
            let user = try await service.fetchUser(id: "123")
            #expect(user == "Test User")
            service.login()
        }
        #expect(orderLoadCalled)
    }

    @Test func injectInPlainClasses() {
        let container = Container()
        let logger = ConsoleLogger()
        container.register(Logger.self, instance: logger)
        container.register(UserRepository.self) { UserRepositoryImpl() }
        Container.withShared(container) {
            let viewModel = UserViewModel()
            #expect(viewModel.load(id: "7") == "user-7")
        }
        #expect(logger.lines == ["fetch 7", "loaded 7"])
    }

    @Test func factoryKeys() {
        Container.withShared(Container()) {
            let viewModel = AccountsViewModel()
            viewModel.load()
            #expect(viewModel.accounts.isEmpty)
            Container.accountLoader.register { AccountLoader() }
            viewModel.load()
            #expect(viewModel.accounts == ["checking"])
            #expect(Container.requiredLoader().load() == ["checking"])
        }
    }
}

// MARK: Async factories in the Swift 5 mode (non-Sendable protocol types, as apps of that era write)

protocol RemoteConfigStore: AnyObject {
    var values: [String: String] { get }
}

final class FetchedRemoteConfig: RemoteConfigStore {
    let values: [String: String]
    init(values: [String: String]) { self.values = values }
}

@Test(.capturesLog) func asyncFactoriesCompileAndResolveInTheSwift5Mode() async throws {
    let container = Container()
    container.registerAsync(RemoteConfigStore.self, scope: .singleton) {
        await Task.yield()
        return FetchedRemoteConfig(values: ["feature": "on"])
    }
    let config = try await container.resolveAsync(RemoteConfigStore.self)
    #expect(config.values["feature"] == "on")
    #expect(container.resolve(RemoteConfigStore.self) == nil) // async-only: resolved with await
    #expect(capturedProblems(mentioning: "RemoteConfigStore is registered with an async factory").count == 1)
}
