// Share dependencies across modules through InjectedValues keys, the container and an event bus.
import Foundation
import WeaveDI

// snippet.hide
public struct User: Sendable, Decodable {
    public let id: String
    public let name: String
}
public struct Endpoint: Sendable, Hashable {
    let path: String
    static func user(id: String) -> Endpoint { Endpoint(path: "/users/\(id)") }
}
struct Offline: Error {}
struct HTTPAPIClient: APIClient {
    func request<T: Decodable>(_ endpoint: Endpoint) async throws -> T { throw Offline() }
}
struct MockAPIClient: APIClient {
    func request<T: Decodable>(_ endpoint: Endpoint) async throws -> T {
        try JSONDecoder().decode(T.self, from: Data(#"{"id":"123","name":"Test User"}"#.utf8))
    }
}
// snippet.show

// snippet.apiClientKey
// Networking module: the protocol, and a key any module importing Networking can inject.
public protocol APIClient: Sendable {
    func request<T: Decodable>(_ endpoint: Endpoint) async throws -> T
}

public struct APIClientKey: InjectedKey {
    public static let liveValue: any APIClient = HTTPAPIClient()
    public static let testValue: any APIClient = MockAPIClient() // used under XCTest and Swift Testing
}

extension InjectedValues {
    public var apiClient: any APIClient {
        get { self[APIClientKey.self] }
        set { self[APIClientKey.self] = newValue }
    }
}
// snippet.end

// snippet.userService
// UserFeature module: sees the protocol, never the implementation.
public struct UserService: Sendable {
    @Injected(\.apiClient) var apiClient

    public init() {}

    public func fetchUser(id: String) async throws -> User {
        try await apiClient.request(.user(id: id))
    }
}
// snippet.end

// snippet.eventBus
// Shared module: events and a thread-safe bus.
public protocol Event: Sendable {}

public protocol EventBus: Sendable {
    func publish(_ event: any Event)
    func subscribe<T: Event>(_ type: T.Type, handler: @escaping @Sendable (T) -> Void)
}

public final class InProcessEventBus: EventBus, @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [ObjectIdentifier: [@Sendable (any Event) -> Void]] = [:] // guarded by `lock`

    public init() {}

    public func publish(_ event: any Event) {
        let targets = lock.withLock { handlers[ObjectIdentifier(type(of: event))] ?? [] }
        for handler in targets { handler(event) } // outside the lock: a handler may publish too
    }

    public func subscribe<T: Event>(_ type: T.Type, handler: @escaping @Sendable (T) -> Void) {
        lock.withLock {
            handlers[ObjectIdentifier(type), default: []].append { event in
                if let event = event as? T { handler(event) }
            }
        }
    }
}

public struct UserLoggedInEvent: Event {
    public let userId: String
}
// snippet.end

// snippet.featureModules
// Each feature registers its own dependencies; the loader runs them in dependency order.
struct UserFeatureModule: FeatureModule {
    static let name = "UserFeature"

    static func configure() async {
        await WeaveDI.Container.bootstrap { container in
            container.register(EventBus.self, scope: .singleton) { InProcessEventBus() }
            container.register(UserService.self) { UserService() }
        }
    }
}

struct OrderFeatureModule: FeatureModule {
    static let name = "OrderFeature"
    static func dependencies() -> [String] { ["UserFeature"] }

    static func configure() async throws {
        try await WeaveDI.Container.bootstrap { container in
            // The bus is the user feature's: hence the dependency above.
            let bus = try container.resolveOrThrow(EventBus.self)
            bus.subscribe(UserLoggedInEvent.self) { event in
                print("Loading the orders of \(event.userId)")
            }
        }
    }
}
// snippet.end

// snippet.loadFeatures
let loader = try FeatureModuleLoader([OrderFeatureModule.self, UserFeatureModule.self])
try await loader.loadAll() // UserFeature, then OrderFeature, each exactly once
print(await loader.loadedModules) // ["UserFeature", "OrderFeature"]
// snippet.end

// snippet.publish
// UserFeature publishes; OrderFeature hears it. Neither imports the other.
let bus = try UnifiedDI.resolveOrThrow(EventBus.self)
bus.publish(UserLoggedInEvent(userId: "42"))
// snippet.end

// snippet.override
let user = try await withInjectedValues { values in
    values.apiClient = MockAPIClient()
} operation: {
    try await UserService().fetchUser(id: "123")
}
// snippet.end

// snippet.hide
print(user.name)
