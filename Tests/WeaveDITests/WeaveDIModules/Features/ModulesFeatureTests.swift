import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

/// Records configurations per feature name. Each test uses its own feature names, so parallel
/// tests never read each other's entries.
private final class FeatureLog: @unchecked Sendable {
    static let shared = FeatureLog()
    private let lock = NSLock()
    private var events: [String] = []

    func begin(_ name: String) {
        lock.lock()
        events.append(name)
        lock.unlock()
    }
    func order(prefix: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return events.filter { $0.hasPrefix(prefix) }
    }
    func count(_ name: String) -> Int { order(prefix: name).filter { $0 == name }.count }
}

private protocol UserRepository {}
private struct CoreDataUserRepository: UserRepository {}
private protocol UserService: Sendable {}
private struct UserServiceImpl: UserService {}
private protocol OrderService {}
private struct OrderServiceImpl: OrderService { let users: UserService }
private protocol NetworkClient {}
private struct URLSessionClient: NetworkClient {}

// MARK: - The Advanced Patterns guide's feature modules

private struct CoreFeatureModule: FeatureModule {
    static let name = "Seed.CoreFeature"
    static func dependencies() -> [String] { [] }
    static func configure() async { FeatureLog.shared.begin(name) }
}

private struct NetworkFeatureModule: FeatureModule {
    static let name = "Seed.NetworkFeature"
    static func dependencies() -> [String] { ["Seed.CoreFeature"] }
    static func configure() async {
        FeatureLog.shared.begin(name)
        await WeaveDI.Container.bootstrap { container in
            container.register(NetworkClient.self) { URLSessionClient() }
        }
    }
}

private struct UserFeatureModule: FeatureModule {
    static let name = "Seed.UserFeature"

    static func dependencies() -> [String] {
        return ["Seed.CoreFeature", "Seed.NetworkFeature"]
    }

    static func configure() async {
        FeatureLog.shared.begin(name)
        await WeaveDI.Container.bootstrap { container in
            container.register(UserRepository.self) {
                CoreDataUserRepository()
            }
            container.register(UserService.self) {
                UserServiceImpl()
            }
        }
    }
}

private struct PaymentFeatureModule: FeatureModule {
    static let name = "Seed.PaymentFeature"
    static func dependencies() -> [String] { ["Seed.CoreFeature"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}

private struct OrderFeatureModule: FeatureModule {
    static let name = "Seed.OrderFeature"

    static func dependencies() -> [String] {
        return ["Seed.UserFeature", "Seed.PaymentFeature"]
    }

    static func configure() async {
        FeatureLog.shared.begin(name)
        await WeaveDI.Container.bootstrap { container in
            // Order's configuration relies on User's having run first.
            let users = container.resolve(UserService.self)
            container.register(OrderService.self) {
                OrderServiceImpl(users: users ?? UserServiceImpl())
            }
            container.register("usersWereReady", Bool.self) { users != nil }
        }
    }
}

private let seedModules: [any FeatureModule.Type] = [
    OrderFeatureModule.self, PaymentFeatureModule.self, UserFeatureModule.self,
    NetworkFeatureModule.self, CoreFeatureModule.self,
]

// MARK: - Lazy, cycle, unknown, concurrency fixtures

private struct LazyBase: FeatureModule {
    static let name = "Lazy.Base"
    static func configure() async { FeatureLog.shared.begin(name) }
}
private struct LazyProfile: FeatureModule {
    static let name = "Lazy.Profile"
    static func dependencies() -> [String] { ["Lazy.Base"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}
private struct LazySettings: FeatureModule {
    static let name = "Lazy.Settings"
    static func dependencies() -> [String] { ["Lazy.Base"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}

private struct CycleA: FeatureModule {
    static let name = "Cycle.A"
    static func dependencies() -> [String] { ["Cycle.B"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}
private struct CycleB: FeatureModule {
    static let name = "Cycle.B"
    static func dependencies() -> [String] { ["Cycle.C"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}
private struct CycleC: FeatureModule {
    static let name = "Cycle.C"
    static func dependencies() -> [String] { ["Cycle.A"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}
private struct CycleRoot: FeatureModule {
    static let name = "Cycle.Root"
    static func dependencies() -> [String] { ["Cycle.A"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}

private struct UnknownOrders: FeatureModule {
    static let name = "Unknown.Orders"
    static func dependencies() -> [String] { ["Unknown.Users"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}
private struct UnknownUsers: FeatureModule {
    static let name = "Unknown.Users"
    static func dependencies() -> [String] { ["Unknown.Missing"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}

private struct SlowBase: FeatureModule {
    static let name = "Slow.Base"
    static func configure() async throws {
        FeatureLog.shared.begin(name)
        // Long enough that concurrent loads arrive while it is still configuring.
        try await Task.sleep(nanoseconds: 50_000_000)
    }
}
private struct SlowFeature: FeatureModule {
    static let name = "Slow.Feature"
    static func dependencies() -> [String] { ["Slow.Base"] }
    static func configure() async throws {
        FeatureLog.shared.begin(name)
        try await Task.sleep(nanoseconds: 20_000_000)
    }
}

private struct ConfigurationError: Error {}
private final class FailSwitch: @unchecked Sendable {
    static let shared = FailSwitch()
    private let lock = NSLock()
    private var failing = true
    var shouldFail: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return failing
        }
        set {
            lock.lock()
            failing = newValue
            lock.unlock()
        }
    }
}
private struct FlakyFeature: FeatureModule {
    static let name = "Flaky.Feature"
    static func configure() async throws {
        FeatureLog.shared.begin(name)
        if FailSwitch.shared.shouldFail { throw ConfigurationError() }
    }
}
private struct FlakyDependent: FeatureModule {
    static let name = "Flaky.Dependent"
    static func dependencies() -> [String] { ["Flaky.Feature"] }
    static func configure() async { FeatureLog.shared.begin(name) }
}

private struct ImpostorCore: FeatureModule {
    static let name = "Seed.CoreFeature"
    static func configure() async {}
}

// MARK: - Tests

@Suite("Modules: feature modules", .capturesLog)
struct ModulesFeatureTests {
    @Test("loadAll configures every feature once, dependencies first, registering into the bound container")
    func loadAllInDependencyOrder() async throws {
        let loader = try FeatureModuleLoader(seedModules)
        let container = Container()
        try await Container.withShared(container) {
            try await loader.loadAll()
            try await loader.loadAll() // already loaded: nothing runs again
        }
        let order = FeatureLog.shared.order(prefix: "Seed.")
        #expect(Set(order).count == 5 && order.count == 5, "each feature exactly once: \(order)")
        func position(_ name: String) -> Int { order.firstIndex(of: name) ?? -1 }
        #expect(position("Seed.CoreFeature") < position("Seed.NetworkFeature"))
        #expect(position("Seed.NetworkFeature") < position("Seed.UserFeature"))
        #expect(position("Seed.UserFeature") < position("Seed.OrderFeature"))
        #expect(position("Seed.PaymentFeature") < position("Seed.OrderFeature"))
        #expect(await loader.loadedModules == order)

        #expect(container.resolve(OrderService.self) != nil)
        #expect(container.resolve("usersWereReady", Bool.self) == true)
        #expect(container.resolve(NetworkClient.self) != nil)
    }

    @Test("load(_:) loads a feature and its dependencies only, on demand")
    func lazyLoading() async throws {
        let loader = try FeatureModuleLoader([LazyBase.self, LazyProfile.self, LazySettings.self])
        #expect(try await loader.loadOrder(for: ["Lazy.Profile"]) == ["Lazy.Base", "Lazy.Profile"])
        #expect(FeatureLog.shared.order(prefix: "Lazy.").isEmpty, "nothing is configured until asked")

        try await loader.load("Lazy.Profile")
        #expect(FeatureLog.shared.order(prefix: "Lazy.") == ["Lazy.Base", "Lazy.Profile"])
        #expect(await loader.isLoaded("Lazy.Profile"))
        #expect(await !loader.isLoaded("Lazy.Settings"))

        try await loader.load(LazySettings.self)
        #expect(FeatureLog.shared.order(prefix: "Lazy.") == ["Lazy.Base", "Lazy.Profile", "Lazy.Settings"])
        #expect(try await loader.loadOrder().isEmpty)
    }

    @Test("a dependency cycle is a thrown error naming the whole path; nothing on it is configured")
    func cycle() async throws {
        let loader = try FeatureModuleLoader([CycleRoot.self, CycleA.self, CycleB.self, CycleC.self])
        do {
            try await loader.load("Cycle.Root")
            Issue.record("expected a cycle error")
        } catch let error as FeatureModuleError {
            guard case .circularDependency(let path) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == ["Cycle.A", "Cycle.B", "Cycle.C", "Cycle.A"])
            #expect(error.localizedDescription.contains("Cycle.A -> Cycle.B -> Cycle.C -> Cycle.A"))
        }
        await #expect(throws: FeatureModuleError.self) { try await loader.loadAll() }
        #expect(FeatureLog.shared.order(prefix: "Cycle.").isEmpty)
        #expect(await loader.loadedModules.isEmpty)
    }

    @Test("an unknown dependency is a thrown error naming the path to it")
    func unknownModule() async throws {
        let loader = try FeatureModuleLoader([UnknownOrders.self, UnknownUsers.self])
        do {
            try await loader.load("Unknown.Orders")
            Issue.record("expected an unknown-module error")
        } catch let error as FeatureModuleError {
            guard case .unknownModule(let name, let path) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(name == "Unknown.Missing")
            #expect(path == ["Unknown.Orders", "Unknown.Users", "Unknown.Missing"])
            #expect(error.localizedDescription.contains("Unknown.Orders -> Unknown.Users"))
        }
        await #expect(throws: FeatureModuleError.self) { try await loader.load("Unknown.NotThere") }
        #expect(FeatureLog.shared.order(prefix: "Unknown.").isEmpty)
    }

    @Test("concurrent loads configure each feature exactly once and all wait for it")
    func concurrentExactlyOnce() async throws {
        let loader = try FeatureModuleLoader([SlowBase.self, SlowFeature.self])
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await loader.load(index.isMultiple(of: 2) ? "Slow.Feature" : "Slow.Base")
                    // Every caller returns only once what it asked for is loaded.
                    return await loader.isLoaded(index.isMultiple(of: 2) ? "Slow.Feature" : "Slow.Base")
                }
            }
            group.addTask {
                try await loader.loadAll()
                return await loader.isLoaded("Slow.Feature")
            }
            for try await loaded in group { #expect(loaded) }
        }
        #expect(FeatureLog.shared.order(prefix: "Slow.") == ["Slow.Base", "Slow.Feature"])
        #expect(await loader.loadedModules == ["Slow.Base", "Slow.Feature"])
    }

    @Test("a failing configure is reported, dependents are not configured, and a later load retries")
    func failingConfigure() async throws {
        let loader = try FeatureModuleLoader([FlakyFeature.self, FlakyDependent.self])
        FailSwitch.shared.shouldFail = true
        do {
            try await loader.load("Flaky.Dependent")
            Issue.record("expected a configuration failure")
        } catch let error as FeatureModuleError {
            guard case .configurationFailed(let name, let underlying) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(name == "Flaky.Feature")
            #expect(underlying is ConfigurationError)
        }
        #expect(await !loader.isLoaded("Flaky.Feature"))
        #expect(FeatureLog.shared.count("Flaky.Dependent") == 0)

        FailSwitch.shared.shouldFail = false
        try await loader.load("Flaky.Dependent")
        #expect(FeatureLog.shared.order(prefix: "Flaky.") == ["Flaky.Feature", "Flaky.Feature", "Flaky.Dependent"])
    }

    @Test("two different features with one name are rejected; registering the same type again is harmless")
    func duplicateNames() async throws {
        #expect(throws: FeatureModuleError.self) {
            try FeatureModuleLoader([CoreFeatureModule.self, ImpostorCore.self])
        }
        let loader = FeatureModuleLoader()
        try await loader.register(CoreFeatureModule.self)
        try await loader.register([CoreFeatureModule.self])
        #expect(await loader.registeredModules == ["Seed.CoreFeature"])
        await #expect(throws: FeatureModuleError.self) { try await loader.register(ImpostorCore.self) }
    }
}
