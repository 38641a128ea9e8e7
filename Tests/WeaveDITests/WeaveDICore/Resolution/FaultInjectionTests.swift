import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

@Suite("Reliability: fault injection", .capturesLog)
struct FaultInjectionTests {
    @Test func throwingSingletonFactoryLeavesNoHalfBuiltInstance() {
        let container = Container()
        let attempts = Counter()
        container.register(Tracked.self, scope: .singleton) {
            attempts.increment()
            if attempts.value == 1 { throw TestFailure(reason: "first attempt fails") }
            return Tracked(Counter())
        }
        #expect(container.resolve(Tracked.self) == nil)
        let second = container.resolve(Tracked.self)
        #expect(second != nil)
        #expect(container.resolve(Tracked.self) === second)
        #expect(attempts.value == 2)
    }

    @Test func waitersRetryAfterABuilderThrows() {
        let container = Container()
        let attempts = Counter()
        container.register(Tracked.self, scope: .singleton) {
            attempts.increment()
            Thread.sleep(forTimeInterval: 0.005)
            if attempts.value == 1 { throw TestFailure(reason: "first build fails") }
            return Tracked(Counter())
        }
        let results = runOnThreads((0..<6).map { _ in { @Sendable in container.resolve(Tracked.self) } })
        let built = results.compactMap { $0 }
        #expect(Set(built.map(ObjectIdentifier.init)).count == 1)
        #expect(attempts.value <= 2)
    }

    @Test func factoryThatResetsTheContainerWhileRunning() {
        let container = Container()
        container.register(String.self) {
            container.reset()
            return "built before the reset took effect"
        }
        #expect(container.resolve(String.self) == "built before the reset took effect")
        #expect(container.resolve(String.self) == nil)
    }

    @Test func factoryThatReplacesItsOwnRegistrationWhileBuildingASingleton() {
        let container = Container()
        container.register(Int.self, scope: .singleton) {
            container.register(Int.self, scope: .singleton) { 2 }
            return 1
        }
        #expect(container.resolve(Int.self) == 1)
        // The replacement is current; the first registration's instance is not cached over it.
        #expect(container.resolve(Int.self) == 2)
    }

    @Test func slowSingletonIsNotDuplicatedByImpatientThreads() {
        let container = Container()
        let built = Counter()
        container.register(Tracked.self, scope: .singleton) {
            Thread.sleep(forTimeInterval: 0.05)
            return Tracked(built)
        }
        let results = runOnThreads((0..<4).map { _ in { @Sendable in container.resolve(Tracked.self) } })
        #expect(built.value == 1)
        #expect(Set(results.map { ObjectIdentifier($0!) }).count == 1)
    }

    @Test func factoryResolvingFromAnotherThreadWhileBuilding() {
        // The factory hands a resolution of another singleton to a second thread and waits for it.
        let container = Container()
        container.register(DataStore.self, scope: .singleton) { InMemoryDataStore() }
        container.register(UserStore.self, scope: .singleton) {
            let done = DispatchSemaphore(value: 0)
            final class Box: @unchecked Sendable { var database: (any DataStore)? }
            let box = Box()
            Thread {
                box.database = container.resolve(DataStore.self)
                done.signal()
            }.start()
            done.wait()
            #expect(box.database != nil)
            return StubUserRepository()
        }
        #expect(container.resolve(UserStore.self) != nil)
    }

    @Test func resolvingWhileAnotherThreadResetsAndBootstrapsAgain() async {
        let container = Container()
        @Sendable func configure() {
            container.register(DataStore.self, scope: .singleton) { InMemoryDataStore() }
            container.register(UserStore.self) {
                _ = container.resolve(DataStore.self)
                return StubUserRepository()
            }
        }
        configure()
        let errors = Counter()
        let token = UnifiedDI.onResolutionError { name, _ in
            if name.hasSuffix("UserStore") { errors.increment() }
        }
        defer { token.cancel() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<200 {
                    container.reset()
                    configure()
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<2000 { _ = container.resolve(UserStore.self) }
                }
            }
        }
        // Every resolution either succeeded or was heard as a miss; afterwards all is consistent.
        #expect(container.resolve(UserStore.self) != nil)
    }

    @Test func everyKindOfFailureReachesTheErrorHook() {
        let container = Container()
        struct Missing {}
        final class Looping: Sendable { init(_ other: Looping?) {} }
        final class Failing: Sendable {}
        container.register(Looping.self) { Looping(container.resolve(Looping.self)) }
        container.register(Failing.self) { throw TestFailure(reason: "nope") }
        container.register(Tracked.self, scope: .custom("ended-scope")) { Tracked(Counter()) }
        let kinds = LockedValue<Set<String>>([])
        let token = UnifiedDI.onResolutionError { name, error in
            guard name.contains("FaultInjectionTests") || name.hasSuffix("Tracked") else { return }
            switch error {
            case .dependencyNotFound: kinds.insert("missing")
            case .circularDependency: kinds.insert("cycle")
            case .factoryFailed: kinds.insert("factory")
            case .scopeEnded: kinds.insert("scope")
            case .scopeNotBound: kinds.insert("unbound")
            case .duplicateRegistration: kinds.insert("duplicate")
            case .resolutionTooDeep: kinds.insert("too deep")
            case .asyncResolutionRequired: kinds.insert("async")
            case .argumentMismatch: kinds.insert("arguments")
            case .argumentNotHashable: kinds.insert("not hashable")
            }
        }
        defer { token.cancel() }
        _ = container.resolve(Missing.self)
        _ = container.resolve(Looping.self)
        _ = container.resolve(Failing.self)
        let scope = container.beginScope(.custom("ended-scope"))
        scope.end()
        container.withScope(scope) { _ = container.resolve(Tracked.self) }
        #expect(kinds.value == ["missing", "cycle", "factory", "scope"])
    }
}
