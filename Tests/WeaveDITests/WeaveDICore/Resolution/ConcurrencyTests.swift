import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

/// Run under `swift test --sanitize=thread` in CI (see .ci/run), and in release for the
/// single-creation race.
@Suite("Concurrency")
struct ConcurrencyTests {
    /// Rounds of the single-creation race; `.ci/run` raises it for the release build.
    static let contentionRounds = Int(ProcessInfo.processInfo.environment["WEAVEDI_CONTENTION_ROUNDS"] ?? "") ?? 200

    @Test func singletonIsBuiltExactlyOnceUnderContention() {
        for _ in 0..<Self.contentionRounds {
            let container = Container()
            let built = Counter()
            container.register(Tracked.self, scope: .singleton) {
                // Widen the race window so racing threads really overlap inside the factory.
                Thread.sleep(forTimeInterval: 0.000_05)
                return Tracked(built)
            }
            let results = runOnThreads((0..<8).map { _ in { @Sendable in container.resolve(Tracked.self) } })
            #expect(built.value == 1)
            #expect(Set(results.map { ObjectIdentifier($0!) }).count == 1)
        }
    }

    @Test func concurrentRegistrationAndResolutionStayConsistent() async {
        let container = Container()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<300 {
                        container.register("\(worker)-\(i)", Int.self) { i }
                        #expect(container.resolve("\(worker)-\(i)", Int.self) == i)
                        _ = container.resolve(String.self)
                    }
                }
            }
        }
        #expect(container.registrations.count == 2400)
    }

    @Test func resolutionWhileTableGrows() async {
        // Readers probe the lock-free table while writers force it to grow many times.
        let container = Container()
        container.register(String.self, scope: .singleton) { "stable" }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<2000 { container.register("grow-\(i)", Int.self) { i } }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<5000 { #expect(container.resolve(String.self) == "stable") }
                }
            }
        }
    }

    @Test func factoryResolvingAndRegisteringFromManyThreadsDoesNotDeadlock() async {
        let container = Container()
        container.register(DataStore.self, scope: .singleton) { InMemoryDataStore() }
        container.register(UserStore.self) {
            _ = container.resolve(DataStore.self)
            container.register("side-effect", Int.self) { 1 }
            return StubUserRepository()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<500 { _ = container.resolve(UserStore.self) } }
            }
            group.addTask {
                for _ in 0..<50 {
                    container.reset()
                    container.register(DataStore.self) { InMemoryDataStore() }
                }
            }
        }
    }

    @Test func sharedBindingIsPerTask() async {
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<16 {
                group.addTask {
                    let mine = Container()
                    mine.register(Int.self) { i }
                    Container.withShared(mine) {
                        #expect(UnifiedDI.resolve(Int.self) == i)
                    }
                }
            }
        }
    }

    @Test func taskOutlivingItsBindingKeepsItsContainer() async {
        let mine = Container()
        mine.register(Int.self) { 42 }
        let gate = AsyncGate()
        let task = Container.withShared(mine) {
            Task {
                await gate.wait()
                return UnifiedDI.resolve(Int.self)
            }
        }
        await gate.open() // the binding has ended; the task still runs inside it
        #expect(await task.value == 42)
    }
}
