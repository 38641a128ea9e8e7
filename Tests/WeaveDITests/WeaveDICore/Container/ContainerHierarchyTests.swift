import Testing
import WeaveDI
import WeaveDITestSupport

@Suite("Parent and child containers", .capturesLog)
struct ContainerHierarchyTests {
    @Test func childFallsBackToParent() {
        let parent = Container()
        parent.register(DataStore.self) { InMemoryDataStore() }
        let child = Container(parent: parent)
        #expect(child.resolve(DataStore.self) != nil)
    }

    @Test func parentNeverSeesChild() {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(UserStore.self) { StubUserRepository() }
        #expect(parent.resolve(UserStore.self) == nil)
    }

    @Test func childOverridesParent() {
        let parent = Container()
        parent.register(String.self) { "parent" }
        let child = Container(parent: parent)
        child.register(String.self) { "child" }
        #expect(child.resolve(String.self) == "child")
        #expect(parent.resolve(String.self) == "parent")
    }

    @Test func parentSingletonIsSharedWithChildren() {
        let parent = Container()
        parent.register(UserStore.self, scope: .singleton) { StubUserRepository() }
        let a = Container(parent: parent)
        let b = Container(parent: parent)
        #expect(a.resolve(UserStore.self) === b.resolve(UserStore.self))
    }

    @Test func ownContainerNeverLeaksIntoShared() {
        let isolated = Container()
        isolated.register(LoopA.self) { LoopA(b: nil) }
        #expect(Container.shared.resolve(LoopA.self) == nil)
        #expect(UnifiedDI.resolve(LoopA.self) == nil)
    }

    @Test func childIsFreedWhenItsOwnerLetsGo() {
        let parent = Container()
        weak var weakChild: Container?
        do {
            let child = Container(parent: parent)
            child.register(String.self) { "x" }
            _ = child.resolve(String.self)
            weakChild = child
        }
        #expect(weakChild == nil)
    }

    @Test func resetOfChildLeavesParent() {
        let parent = Container()
        parent.register(String.self) { "p" }
        let child = Container(parent: parent)
        child.register(Int.self) { 1 }
        child.reset()
        #expect(child.resolve(Int.self) == nil)
        #expect(child.resolve(String.self) == "p")
    }
}
