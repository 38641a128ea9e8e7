import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDICore

private final class CycleA: Sendable {}
private final class CycleB: Sendable {}
private final class CycleC: Sendable {}
private final class Warmed: Sendable {}
private protocol Channel: Sendable {}
private final class ChannelImpl: Channel {}

// Synchronous factories that close a cycle while other threads wait for their builds, in the
// shapes apps write. Every thread a test starts is joined with a deadline, so a hang is a failure
// that says which thread is stuck, never a stuck CI job.

/// Runs each body on a thread of its own (the test's log capture bound) and returns what each
/// returned, `nil` for a thread still running after `seconds`.
private func onThreads<R: Sendable>(
    _ bodies: [@Sendable () -> R], within seconds: Double = ConcurrencyModelTests.patience
) -> [R?] {
    let spawned = bodies.map { Spawned($0) }
    let deadline = Date() + seconds
    return spawned.map { $0.join(max(0, deadline.timeIntervalSinceNow)) }
}

/// What a resolution ended with: `"ok"`, or the cycle's path (`A -> B -> A`), or another error.
private func outcome(_ body: () throws -> Any) -> String {
    do {
        _ = try body()
        return "ok"
    } catch let DIError.circularDependency(path) {
        return path.joined(separator: " -> ")
    } catch {
        return "\(error)"
    }
}

/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
private func waitUntil(_ seconds: Double = ConcurrencyModelTests.patience, _ condition: () -> Bool) -> Bool {
    let deadline = Date() + seconds
    while !condition() {
        if Date() > deadline { return false }
        usleep(200)
    }
    return true
}

private let nameA = ResolutionFrame.displayName(CycleA.self, nil)
private let nameB = ResolutionFrame.displayName(CycleB.self, nil)
private let nameC = ResolutionFrame.displayName(CycleC.self, nil)

@Suite("Synchronous cycles with waiters", .serialized, .capturesLog)
struct SyncCycleStressTests {
    /// The builder's own factory resolves the singleton again (`A -> B -> A`, found on its own
    /// stack) while other threads wait for that build: they get the builder's cycle, and A's
    /// factory runs once. (Before, each waiter was told to look again, found A empty, built it
    /// and formed the cycle itself: one more run of A's factory per waiter.)
    @Test("threads waiting for a build that fails on its own thread's cycle get that cycle")
    func waitersGetTheBuildersCycle() {
        let container = Container()
        let aRuns = Counter()
        let waiters = 4
        let building = Signal()
        container.register(CycleA.self, scope: .singleton) {
            if aRuns.next() == 1 {
                building.raise()
                // The first build goes on once every other thread waits for it.
                _ = waitUntil { BuildCoordinator.shared.waiterCount(forJob: nameA) == waiters }
            }
            _ = try container.resolveOrThrow(CycleB.self)
            return CycleA()
        }
        container.register(CycleB.self) {
            _ = try container.resolveOrThrow(CycleA.self)
            return CycleB()
        }
        let builder = Spawned { outcome { try container.resolveOrThrow(CycleA.self) } }
        #expect(building.wait())
        let others = onThreads(
            (0..<waiters).map { _ in { @Sendable in outcome { try container.resolveOrThrow(CycleA.self) } } })
        let cycle = "\(nameA) -> \(nameB) -> \(nameA)"
        #expect(builder.join() == cycle)
        #expect(others == Array(repeating: cycle, count: waiters))
        #expect(aRuns.value == 1, "A's factory ran \(aRuns.value) times")
    }

    /// A cycle across threads: thread 1 builds A and waits for B; thread 2 builds B, whose
    /// factory builds C, whose factory asks for A: the wait is refused (A waits for B, which thread
    /// 2 builds). C is on that cycle too, though the wait's chain (A, B) does not name it: thread 3,
    /// waiting for C, gets the cycle, and C's factory runs once. (Before, thread 3 built C again.)
    @Test("a thread waiting for a build in which a wait closed a cycle across threads gets that cycle")
    func waiterOfABuildAboveARefusedWait() {
        let container = Container()
        let cRuns = Counter()
        let aStarted = Signal()
        let cStarted = Signal()
        let bBuilding = Signal()
        container.register(CycleA.self, scope: .singleton) {
            aStarted.raise()
            #expect(bBuilding.wait())
            _ = try container.resolveOrThrow(CycleB.self)
            return CycleA()
        }
        container.register(CycleB.self, scope: .singleton) {
            _ = try container.resolveOrThrow(CycleC.self)
            return CycleB()
        }
        container.register(CycleC.self, scope: .singleton) {
            cRuns.increment()
            bBuilding.raise()
            cStarted.raise()
            // Thread 1 waits for B, thread 3 for C.
            _ = waitUntil {
                BuildCoordinator.shared.waiterCount(forJob: nameB) == 1
                    && BuildCoordinator.shared.waiterCount(forJob: nameC) == 1
            }
            _ = try container.resolveOrThrow(CycleA.self)
            return CycleC()
        }
        let first = Spawned { outcome { try container.resolveOrThrow(CycleA.self) } }
        #expect(aStarted.wait())
        let second = Spawned { outcome { try container.resolveOrThrow(CycleB.self) } }
        #expect(cStarted.wait())
        let third = Spawned { outcome { try container.resolveOrThrow(CycleC.self) } }
        let cycle = "\(nameB) -> \(nameC) -> \(nameA) -> \(nameB)"
        #expect(second.join() == cycle)
        #expect(first.join() == cycle)
        #expect(third.join() == cycle)
        #expect(cRuns.value == 1, "C's factory ran \(cRuns.value) times")
    }

    /// Many threads race into a singleton whose factory cycles back through a transient and a
    /// scoped dependency, round after round: each thread gets the cycle, none hangs, and no
    /// thread runs A's factory more than once per resolution.
    @Test("threads racing into a singleton whose factory cycles back", arguments: [Scope.singleton, .weak])
    func racingIntoACycle(scope: Scope) {
        for round in 0..<200 {
            let container = Container()
            let aRuns = Counter()
            container.register(CycleA.self, scope: scope) {
                aRuns.increment()
                _ = try container.resolveOrThrow(CycleB.self)
                return CycleA()
            }
            container.register(CycleB.self) {
                _ = try container.resolveOrThrow(CycleC.self)
                return CycleB()
            }
            container.register(CycleC.self, scope: .singleton) {
                _ = try container.resolveOrThrow(CycleA.self)
                return CycleC()
            }
            let threads = 4
            let results = onThreads(
                (0..<threads).map { index in
                    { @Sendable in
                        outcome {
                            index.isMultiple(of: 2)
                                ? try container.resolveOrThrow(CycleA.self) as Any
                                : try container.resolveOrThrow(CycleC.self)
                        }
                    }
                })
            #expect(!results.contains(nil), "round \(round): a thread hangs: \(results)")
            for case let result? in results {
                #expect(result.contains(nameA) && result.contains(nameC), "round \(round): \(result)")
            }
            #expect(aRuns.value <= threads, "round \(round): A's factory ran \(aRuns.value) times")
            if results.contains(nil) { return }
        }
    }

    /// A factory that starts a thread which resolves the singleton being built (a warm-up) and
    /// then, slowly, closes a cycle. The started thread waits for the build and gets the cycle.
    /// (Before, it was told to build again; its build started one more thread, which waited and
    /// was told the same: builds of A without end.)
    @Test("a factory that starts a thread resolving what it builds, then cycles: the runs stop")
    func threadStartedInTheFactory() {
        for round in 0..<20 {
            let container = Container()
            let aRuns = Counter()
            let capture = LogCapture.current
            let finished = Counter()
            container.register(CycleA.self, scope: .singleton) {
                // Bounded even if the runs never stop: past 100, no more threads.
                if aRuns.next() < 100 {
                    Thread {
                        withCurrentLogCapture(capture) { _ = try? container.resolveOrThrow(CycleA.self) }
                        finished.increment()
                    }.start()
                }
                // Slow work (I/O) before the dependency: the started thread is waiting by then.
                _ = waitUntil { BuildCoordinator.shared.waiterCount(forJob: nameA) > 0 }
                _ = try container.resolveOrThrow(CycleB.self)
                return CycleA()
            }
            container.register(CycleB.self, scope: .singleton) {
                _ = try container.resolveOrThrow(CycleA.self)
                return CycleB()
            }
            let result = onThreads([{ @Sendable in outcome { try container.resolveOrThrow(CycleA.self) } }])
            #expect(result == ["\(nameA) -> \(nameB) -> \(nameA)"], "round \(round)")
            // Every started thread ends, and no build of A runs after that.
            #expect(waitUntil { finished.value == min(aRuns.value, 99) }, "round \(round): started threads still run")
            let runs = aRuns.value
            usleep(5_000)
            #expect(aRuns.value == runs, "round \(round): A is still being built")
            #expect(runs == 1, "round \(round): A's factory ran \(runs) times")
            if runs != 1 { return }
        }
    }

    /// The same with a `Task {}` that resolves back (`resolveAsync` of a synchronous
    /// registration runs the synchronous path, and waits on a thread of the task's executor):
    /// it gets the cycle, and A's factory runs once. (Before, the task built A again.) Only the
    /// first build starts a task: a factory blocking the few executor threads for long would
    /// hold up the other tests' tasks.
    @Test("a factory that starts a Task resolving what it builds, then cycles: the task gets the cycle")
    func taskStartedInTheFactory() {
        for round in 0..<20 {
            let container = Container()
            let aRuns = Counter()
            let capture = LogCapture.current
            let started = Recorder<String>()
            let taskWaited = LockedValue(false)
            container.register(CycleA.self, scope: .singleton) {
                if aRuns.next() == 1 {
                    Task.detached {
                        let result = await LogCapture.$current.withValue(capture) {
                            do {
                                _ = try await container.resolveAsync(CycleA.self)
                                return "ok"
                            } catch let DIError.circularDependency(path) {
                                return path.joined(separator: " -> ")
                            } catch {
                                return "\(error)"
                            }
                        }
                        started.append(result)
                    }
                    let waited = waitUntil { BuildCoordinator.shared.waiterCount(forJob: nameA) > 0 }
                    taskWaited.mutate { $0 = waited }
                }
                _ = try container.resolveOrThrow(CycleB.self)
                return CycleA()
            }
            container.register(CycleB.self, scope: .singleton) {
                _ = try container.resolveOrThrow(CycleA.self)
                return CycleB()
            }
            let cycle = "\(nameA) -> \(nameB) -> \(nameA)"
            let result = onThreads([{ @Sendable in outcome { try container.resolveOrThrow(CycleA.self) } }])
            #expect(result == [cycle], "round \(round)")
            #expect(waitUntil { !started.all.isEmpty }, "round \(round): the task still runs")
            // The promise is for a task already waiting when the build fails. If no executor
            // thread was free to start it in time (a loaded full sanitizer run), it came later:
            // a new resolution, which builds A again and meets the cycle on its own stack.
            #expect(started.all == [cycle], "round \(round)")
            guard taskWaited.value else { continue }
            #expect(aRuns.value == 1, "round \(round): A's factory ran \(aRuns.value) times")
            if aRuns.value != 1 { return }
        }
    }

    /// `DispatchQueue.sync` runs its block on the calling thread: a cycle through the hop is on
    /// that thread's stack, reported at once, for every thread racing in.
    @Test("a cycle through a DispatchQueue.sync hop")
    func cycleThroughAQueueHop() {
        let queue = DispatchQueue(label: "weavedi.tests.hop")
        for round in 0..<100 {
            let container = Container()
            container.register(CycleA.self, scope: .singleton) {
                try queue.sync { _ = try container.resolveOrThrow(CycleB.self) }
                return CycleA()
            }
            container.register(CycleB.self, scope: .singleton) {
                try DispatchQueue.global().sync { _ = try container.resolveOrThrow(CycleA.self) }
                return CycleB()
            }
            let results = onThreads(
                (0..<4).map { index in
                    { @Sendable in
                        outcome {
                            index.isMultiple(of: 2)
                                ? try container.resolveOrThrow(CycleA.self) as Any
                                : try container.resolveOrThrow(CycleB.self)
                        }
                    }
                })
            #expect(!results.contains(nil), "round \(round): a thread hangs")
            for case let result? in results {
                #expect(result.contains(nameA) && result.contains(nameB), "round \(round): \(result)")
            }
            if results.contains(nil) { return }
        }
    }

    /// A parent's singleton whose factory resolves through a child, whose registration resolves
    /// the singleton again: the cycle runs through both containers, and every thread racing in
    /// through the child gets it.
    @Test("a cycle through a child container")
    func cycleThroughAChild() {
        for round in 0..<100 {
            let root = Container()
            let child = Container(parent: root)
            root.register(CycleA.self, scope: .singleton) { [unowned child] in
                _ = try child.resolveOrThrow(CycleB.self)
                return CycleA()
            }
            child.register(CycleB.self, scope: .singleton) { [unowned child] in
                _ = try child.resolveOrThrow(CycleA.self)
                return CycleB()
            }
            let results = onThreads(
                (0..<4).map { index in
                    { @Sendable in
                        outcome {
                            index.isMultiple(of: 2)
                                ? try child.resolveOrThrow(CycleA.self) as Any : try child.resolveOrThrow(CycleB.self)
                        }
                    }
                })
            #expect(!results.contains(nil), "round \(round): a thread hangs")
            for case let result? in results {
                #expect(result.contains("\(nameA) -> \(nameB)") || result.contains("\(nameB) -> \(nameA)"), "\(result)")
            }
            if results.contains(nil) { return }
        }
    }

    /// One type under two names, each needing the other: a cycle named with both names; the
    /// same two names without the way back are no cycle, whoever races.
    @Test("a type registered under two names in the cycle")
    func cycleThroughTwoNames() {
        let primary = ResolutionFrame.displayName((any Channel).self, "primary")
        let fallback = ResolutionFrame.displayName((any Channel).self, "fallback")
        for round in 0..<100 {
            let container = Container()
            let closes = round.isMultiple(of: 2)
            container.register("primary", (any Channel).self, scope: .singleton) {
                _ = try container.resolveOrThrow("fallback", (any Channel).self)
                return ChannelImpl()
            }
            container.register("fallback", (any Channel).self, scope: .singleton) {
                if closes { _ = try container.resolveOrThrow("primary", (any Channel).self) }
                return ChannelImpl()
            }
            let results = onThreads(
                (0..<4).map { index in
                    { @Sendable in
                        outcome { try container.resolveOrThrow(index < 2 ? "primary" : "fallback", (any Channel).self) }
                    }
                })
            #expect(!results.contains(nil), "round \(round): a thread hangs")
            for case let result? in results {
                if closes {
                    #expect(
                        result.contains("\(primary) -> \(fallback)") || result.contains("\(fallback) -> \(primary)"))
                } else {
                    #expect(result == "ok", "round \(round): \(result)")
                }
            }
            if results.contains(nil) { return }
        }
    }
}
