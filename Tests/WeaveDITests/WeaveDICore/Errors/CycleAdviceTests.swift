import Testing
import WeaveDI
import WeaveDICore
import WeaveDITestSupport

// The cycle message says how to break the cycle; each way out it names is followed here, for the
// kind of registration it names, and the cycle is gone. A protocol between the two sides is not
// advice (it changes no order of construction), and `@Inject` cannot reach an async registration.

final class AdviceUsers: Sendable {
    let orders: AdviceOrders
    init(orders: AdviceOrders) { self.orders = orders }
}

/// The broken side: its factory resolves `AdviceUsers`.
final class AdviceOrders: Sendable {
    let users: AdviceUsers?
    init(users: AdviceUsers?) { self.users = users }
}

/// The fixed side, as the advice says: it gets `AdviceLazyUsers` on first use, through `@Inject`.
final class AdviceLazyOrders: @unchecked Sendable {
    @Inject var users: AdviceLazyUsers?
}

final class AdviceLazyUsers: Sendable {
    let orders: AdviceLazyOrders
    init(orders: AdviceLazyOrders) { self.orders = orders }
}

/// The fixed side through a Factory key read later (`@Injected` calls the key on every read).
final class AdviceKeyOrders: @unchecked Sendable {
    @Injected(Container.adviceKeyUsers) var users: AdviceKeyUsers?
}

final class AdviceKeyUsers: Sendable {
    let orders: AdviceKeyOrders
    init(orders: AdviceKeyOrders) { self.orders = orders }
}

extension Container {
    static let adviceKeyUsers: Factory<AdviceKeyUsers?> = Factory(scope: .singleton) {
        AdviceKeyUsers(orders: AdviceKeyOrders())
    }
}

final class AdviceAsyncUsers: Sendable {
    let orders: AdviceAsyncOrders
    init(orders: AdviceAsyncOrders) { self.orders = orders }
}

/// The async side, as the advice says: it keeps the container and resolves on first use.
final class AdviceAsyncOrders: Sendable {
    let container: Container
    init(container: Container) { self.container = container }
    func users() async throws -> AdviceAsyncUsers { try await container.resolveAsync(AdviceAsyncUsers.self) }
}

/// What `@Inject` gives for an async-only registration: nothing (the advice says so).
final class AdviceAsyncInjectOrders: @unchecked Sendable {
    @Inject var users: AdviceAsyncUsers?
}

@Suite("Cycle messages: the advice works", .capturesLog)
struct CycleAdviceTests {
    @Test("a synchronous cycle names who resolves whom; the @Inject way out breaks it")
    func synchronousCycle() throws {
        let container = Container()
        container.register(AdviceUsers.self, scope: .singleton) {
            AdviceUsers(orders: try container.resolveOrThrow(AdviceOrders.self))
        }
        container.register(AdviceOrders.self) { AdviceOrders(users: try container.resolveOrThrow(AdviceUsers.self)) }
        let error = try #require(#expect(throws: DIError.self) { try container.resolveOrThrow(AdviceUsers.self) })
        let message = "\(error)"
        #expect(
            message.hasPrefix(
                "Circular dependency: WeaveDITests.AdviceUsers -> WeaveDITests.AdviceOrders -> WeaveDITests.AdviceUsers."
            ))
        #expect(
            message.contains(
                "WeaveDITests.AdviceOrders's factory resolves WeaveDITests.AdviceUsers, which is still being built"))
        #expect(message.contains("an optional `@Inject` property"))
        #expect(!message.contains("protocol"))
        // Logged once, as an error, in this test's capture.
        #expect(
            capturedProblems(mentioning: "Circular dependency: WeaveDITests.AdviceUsers").map(\.severity) == [.error])

        // The advice: AdviceLazyOrders gets the users on first use instead of in its factory.
        let fixed = Container()
        fixed.register(AdviceLazyUsers.self, scope: .singleton) {
            AdviceLazyUsers(orders: try fixed.resolveOrThrow(AdviceLazyOrders.self))
        }
        fixed.register(AdviceLazyOrders.self) { AdviceLazyOrders() }
        try Container.withShared(fixed) {
            let users = try fixed.resolveOrThrow(AdviceLazyUsers.self)
            #expect(users.orders.users === users)
        }
    }

    @Test("a Factory key read later breaks a synchronous cycle too")
    func factoryKeyWayOut() {
        Container.withShared(Container()) {
            let users = Container.adviceKeyUsers()
            #expect(users?.orders.users === users)
        }
    }

    @Test("a factory that resolves its own type is told to build without it")
    func selfCycle() throws {
        let container = Container()
        container.register(SelfNeeding.self) { SelfNeeding(me: try container.resolveOrThrow(SelfNeeding.self)) }
        let error = try #require(#expect(throws: DIError.self) { try container.resolveOrThrow(SelfNeeding.self) })
        #expect(
            "\(error)"
                == "Circular dependency: WeaveDITests.SelfNeeding -> WeaveDITests.SelfNeeding. WeaveDITests.SelfNeeding's factory resolves WeaveDITests.SelfNeeding itself: build it without that resolution."
        )
        #expect(capturedProblems(mentioning: "SelfNeeding's factory resolves").count == 1)
    }

    @Test("an async cycle's way out is resolveAsync after the factory has returned; @Inject cannot reach it")
    func asynchronousCycle() async throws {
        let container = Container()
        container.registerAsync(AdviceAsyncUsers.self, scope: .singleton) {
            AdviceAsyncUsers(orders: try await container.resolveAsync(AdviceAsyncOrders.self))
        }
        container.registerAsync(AdviceAsyncOrders.self) {
            _ = try await container.resolveAsync(AdviceAsyncUsers.self)
            return AdviceAsyncOrders(container: container)
        }
        let error = try #require(
            await #expect(throws: DIError.self) { try await container.resolveAsync(AdviceAsyncUsers.self) })
        let message = "\(error)"
        #expect(message.contains("WeaveDITests.AdviceAsyncOrders's factory resolves WeaveDITests.AdviceAsyncUsers"))
        #expect(message.contains("`try await container.resolveAsync(…)` in the method that needs it"))
        #expect(message.contains("which @Inject cannot reach"))
        #expect(!capturedProblems(mentioning: "Circular dependency: WeaveDITests.AdviceAsyncUsers").isEmpty)

        // The advice: the orders keep the container and resolve the users when a method needs them.
        let fixed = Container()
        fixed.registerAsync(AdviceAsyncUsers.self, scope: .singleton) {
            AdviceAsyncUsers(orders: try await fixed.resolveAsync(AdviceAsyncOrders.self))
        }
        fixed.registerAsync(AdviceAsyncOrders.self) { AdviceAsyncOrders(container: fixed) }
        let users = try await fixed.resolveAsync(AdviceAsyncUsers.self)
        #expect(try await users.orders.users() === users)

        // And what the advice rules out: @Inject reads nil for an async-only registration.
        Container.withShared(fixed) {
            #expect(AdviceAsyncInjectOrders().users == nil)
        }
    }
}
