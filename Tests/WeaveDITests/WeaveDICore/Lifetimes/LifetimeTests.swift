import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

@Suite("Lifetimes", .capturesLog)
struct LifetimeTests {
    @Test func transientIsTheDefaultAndBuildsEveryTime() {
        let container = Container()
        container.register(UserStore.self) { StubUserRepository() }
        let first = container.resolve(UserStore.self)
        let second = container.resolve(UserStore.self)
        #expect(first !== second)
    }

    @Test func singletonIsBuiltOnceOnFirstResolution() {
        let container = Container()
        let built = Counter()
        container.register(Tracked.self, scope: .singleton) { Tracked(built) }
        #expect(built.value == 0)
        let first = container.resolve(Tracked.self)
        let second = container.resolve(Tracked.self)
        #expect(first === second)
        #expect(built.value == 1)
    }

    @Test func singletonIsPerContainer() {
        let a = Container()
        let b = Container()
        for container in [a, b] { container.register(UserStore.self, scope: .singleton) { StubUserRepository() } }
        #expect(a.resolve(UserStore.self) !== b.resolve(UserStore.self))
    }

    @Test func weakIsSharedWhileHeldAndRebuiltAfter() {
        let container = Container()
        let built = Counter()
        container.register(Tracked.self, scope: .weak) { Tracked(built) }
        do {
            let held = container.resolve(Tracked.self)
            let again = container.resolve(Tracked.self)
            #expect(held === again)
            #expect(built.value == 1)
        }
        let rebuilt = container.resolve(Tracked.self)
        #expect(rebuilt != nil)
        #expect(built.value == 2)
    }

    @Test func resetReleasesSingletons() {
        let container = Container()
        let built = Counter()
        let released = Counter()
        container.register(Tracked.self, scope: .singleton) { Tracked(built, deinits: released) }
        _ = container.resolve(Tracked.self)
        #expect(released.value == 0)
        container.reset()
        #expect(released.value == 1)
        #expect(container.resolve(Tracked.self) == nil)
    }

    @Test func replacingASingletonReleasesTheOldInstance() {
        let container = Container()
        let built = Counter()
        let released = Counter()
        container.register(Tracked.self, scope: .singleton) { Tracked(built, deinits: released) }
        _ = container.resolve(Tracked.self)
        container.register(Tracked.self, scope: .singleton) { Tracked(built, deinits: released) }
        #expect(released.value == 1)
    }
}

@Suite("Custom scopes", .capturesLog)
struct ScopeTests {
    @Test func scopedInstanceIsSharedWithinAScopeAndReleasedWhenItEnds() {
        let container = Container()
        let built = Counter()
        let released = Counter()
        container.register(Tracked.self, scope: .request) { Tracked(built, deinits: released) }
        container.withScope(.request) {
            let a = container.resolve(Tracked.self)
            let b = container.resolve(Tracked.self)
            #expect(a === b)
        }
        #expect(built.value == 1)
        #expect(released.value == 1)
    }

    @Test func concurrentScopesAreIsolated() async {
        let container = Container()
        container.register(UserStore.self, scope: .request) { StubUserRepository() }
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await container.withScope(.request) {
                        await Task.yield()
                        let a = container.resolve(UserStore.self)!.id
                        await Task.yield()
                        let b = container.resolve(UserStore.self)!.id
                        #expect(a == b)
                        return [a.uuidString]
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 8)
    }

    @Test func containerScopeEndsOnRequest() {
        let container = Container()
        container.register(UserStore.self, scope: .session) { StubUserRepository() }
        let first = container.resolve(UserStore.self)
        #expect(first === container.resolve(UserStore.self))
        container.endScope(.session)
        #expect(first !== container.resolve(UserStore.self))
    }

    @Test func endedScopeInstanceRefusesResolution() throws {
        let container = Container()
        container.register(UserStore.self, scope: .custom("wizard")) { StubUserRepository() }
        let wizard = container.beginScope(.custom("wizard"))
        container.withScope(wizard) { #expect(container.resolve(UserStore.self) != nil) }
        #expect(wizard.instanceCount == 1)
        wizard.end()
        #expect(wizard.instanceCount == 0)
        container.withScope(wizard) {
            #expect(throws: DIError.self) { try container.resolveOrThrow(UserStore.self) }
        }
    }
}
