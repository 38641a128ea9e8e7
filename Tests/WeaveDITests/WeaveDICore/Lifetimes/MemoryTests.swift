import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

@Suite("Reliability: memory")
struct MemoryTests {
    @Test func droppedContainerReleasesEverythingItHeld() {
        let released = Counter()
        weak var weakContainer: Container?
        do {
            let container = Container()
            container.register(Tracked.self, scope: .singleton) { Tracked(Counter(), deinits: released) }
            container.register("scoped", Tracked.self, scope: .session) { Tracked(Counter(), deinits: released) }
            _ = container.resolve(Tracked.self)
            _ = container.resolve("scoped", Tracked.self)
            weakContainer = container
        }
        #expect(weakContainer == nil)
        #expect(released.value == 2)
    }

    @Test func factoryCapturingItsContainerWeaklyCreatesNoCycle() {
        weak var weakContainer: Container?
        do {
            let container = Container()
            container.register(DataStore.self) { InMemoryDataStore() }
            container.register(UserStore.self) { [weak container] in
                _ = container?.resolve(DataStore.self)
                return StubUserRepository()
            }
            _ = container.resolve(UserStore.self)
            weakContainer = container
        }
        #expect(weakContainer == nil)
    }

    @Test func resetBreaksACycleThroughAFactoryThatCapturedItsContainer() {
        weak var weakContainer: Container?
        do {
            let container = Container()
            container.register(UserStore.self) {
                _ = container.resolve(DataStore.self) // strong capture: a cycle until reset
                return StubUserRepository()
            }
            weakContainer = container
            container.reset()
        }
        #expect(weakContainer == nil)
    }

    @Test func childAndParentHoldNoCycle() {
        weak var weakParent: Container?
        weak var weakChild: Container?
        do {
            let parent = Container()
            let child = Container(parent: parent)
            parent.register(Int.self) { 1 }
            _ = child.resolve(Int.self)
            weakParent = parent
            weakChild = child
        }
        #expect(weakChild == nil)
        #expect(weakParent == nil)
    }

    @Test func weakLifetimeFreesItsInstance() {
        let container = Container()
        let released = Counter()
        container.register(Tracked.self, scope: .weak) { Tracked(Counter(), deinits: released) }
        do { _ = container.resolve(Tracked.self) }
        #expect(released.value == 1)
    }

    @Test func scopeEndReleasesItsInstances() {
        let container = Container()
        let released = Counter()
        container.register(Tracked.self, scope: .request) { Tracked(Counter(), deinits: released) }
        let scope = container.beginScope(.request)
        container.withScope(scope) { _ = container.resolve(Tracked.self) }
        #expect(released.value == 0)
        scope.end()
        #expect(released.value == 1)
    }
}
