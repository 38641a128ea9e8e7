import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

final class AsyncCycleA: Sendable {}
final class AsyncCycleB: Sendable {}
final class AsyncCycleC: Sendable {}

@Suite("Async factories: exactly once, suspending waiters, cycles, cancellation", .capturesLog)
struct AsyncConcurrencyTests {
    /// Thousands of tasks ask for one slow async singleton: one build, every task gets the same
    /// instance, and while they all wait, unrelated work on the same (two-thread) cooperative pool
    /// runs to completion — which it could not if the waiters blocked the pool's threads.
    @Test(.timeLimit(.minutes(1)))
    func thousandsOfWaitersSuspendWhileOneBuildRuns() async throws {
        let container = Container()
        let builds = Counter()
        let gate = AsyncGate()
        container.registerAsync(AsyncService.self, scope: .singleton) {
            builds.increment()
            await gate.wait()
            return AsyncService(serial: 1)
        }
        let waiters = 3_000
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<waiters {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(AsyncService.self)) }
            }
            // The build is in progress (its factory waits for the gate); every other task waits for it.
            await gate.untilWaiters(1)
            let unrelated = await Task.detached {
                var sum = 0
                for value in 0..<2_000 {
                    sum += value
                    await Task.yield()
                }
                return sum
            }.value
            #expect(unrelated == 1_999_000)
            #expect(builds.value == 1)
            await gate.open()
            var ids: [ObjectIdentifier] = []
            for try await id in group { ids.append(id) }
            return ids
        }
        #expect(ids.count == waiters)
        #expect(Set(ids).count == 1)
        #expect(builds.value == 1)
    }

    /// Scoped instances: one build per scope instance under concurrent requests for it.
    @Test func concurrentRequestsInOneScopeInstanceShareOneBuild() async throws {
        let container = Container()
        let builds = Counter()
        container.registerAsync(AsyncService.self, scope: .request) {
            let serial = builds.next()
            try await Task.sleep(nanoseconds: 2_000_000)
            return AsyncService(serial: serial)
        }
        for _ in 0..<4 {
            let serials = try await container.withScope(.request) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<50 { group.addTask { try await container.resolveAsync(AsyncService.self).serial } }
                    return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
                }
            }
            #expect(serials.count == 1)
        }
        #expect(builds.value == 4)
    }

    // MARK: Cycles

    @Test func cycleWithinOneTaskIsReportedWithItsPath() async {
        let container = Container()
        container.registerAsync(AsyncCycleA.self, scope: .singleton) {
            _ = try await container.resolveAsync(AsyncCycleB.self)
            return AsyncCycleA()
        }
        container.registerAsync(AsyncCycleB.self) {
            await Task.yield() // resumes anywhere: the path travels with the task
            _ = try await container.resolveAsync(AsyncCycleA.self)
            return AsyncCycleB()
        }
        await expectCycle(["WeaveDITests.AsyncCycleA", "WeaveDITests.AsyncCycleB", "WeaveDITests.AsyncCycleA"]) {
            _ = try await container.resolveAsync(AsyncCycleA.self)
        }
    }

    @Test func transientCycleWithinOneTaskIsReported() async {
        let container = Container()
        container.registerAsync(AsyncCycleA.self) {
            _ = try await container.resolveAsync(AsyncCycleB.self)
            return AsyncCycleA()
        }
        container.registerAsync(AsyncCycleB.self) {
            _ = try await container.resolveAsync(AsyncCycleC.self)
            return AsyncCycleB()
        }
        container.registerAsync(AsyncCycleC.self) {
            _ = try await container.resolveAsync(AsyncCycleA.self)
            return AsyncCycleC()
        }
        await expectCycle([
            "WeaveDITests.AsyncCycleA", "WeaveDITests.AsyncCycleB", "WeaveDITests.AsyncCycleC",
            "WeaveDITests.AsyncCycleA",
        ]) {
            _ = try await container.resolveAsync(AsyncCycleA.self)
        }
    }

    /// A's factory resolves B in a child task (`async let`), and B's factory needs A: the child
    /// runs inside A's build, which awaits it, so waiting for A would never end.
    @Test(.timeLimit(.minutes(1)))
    func cycleThroughAChildTaskIsReported() async {
        let container = Container()
        container.registerAsync(AsyncCycleA.self, scope: .singleton) {
            async let b = container.resolveAsync(AsyncCycleB.self)
            _ = try await b
            return AsyncCycleA()
        }
        container.registerAsync(AsyncCycleB.self, scope: .singleton) {
            _ = try await container.resolveAsync(AsyncCycleA.self)
            return AsyncCycleB()
        }
        await expectCycle(nil) { _ = try await container.resolveAsync(AsyncCycleA.self) }
    }

    // MARK: Cancellation

    @Test(.timeLimit(.minutes(1)))
    func cancelledWaiterStopsWaitingAndTheBuildGoesOn() async throws {
        let container = Container()
        let builds = Counter()
        let gate = AsyncGate()
        container.registerAsync("cancel-waiter", AsyncService.self, scope: .singleton) {
            builds.increment()
            await gate.wait()
            return AsyncService(serial: 1)
        }
        let builder = Task { try await container.resolveAsync("cancel-waiter", AsyncService.self) }
        await gate.untilWaiters(1)
        let waiter = Task { try await container.resolveAsync("cancel-waiter", AsyncService.self) }
        let other = Task { try await container.resolveAsync("cancel-waiter", AsyncService.self) }
        await eventually { BuildCoordinatorProbe.waiting(2, for: "cancel-waiter") }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await gate.open()
        let built = try await builder.value
        #expect(try await other.value === built)
        #expect(builds.value == 1)
        #expect(try await container.resolveAsync("cancel-waiter", AsyncService.self) === built)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheBuilderLetsAWaiterBuild() async throws {
        let container = Container()
        let builds = Counter()
        let gate = AsyncGate()
        container.registerAsync("cancel-builder", AsyncService.self, scope: .singleton) {
            let serial = builds.next()
            if serial == 1 {
                await gate.wait()
                try Task.checkCancellation() // the first build honours its task's cancellation
            }
            return AsyncService(serial: serial)
        }
        let builder = Task { try await container.resolveAsync("cancel-builder", AsyncService.self) }
        await gate.untilWaiters(1)
        let waiter = Task { try await container.resolveAsync("cancel-builder", AsyncService.self) }
        await eventually { BuildCoordinatorProbe.waiting(1, for: "cancel-builder") }
        builder.cancel()
        await gate.open()
        await #expect(throws: CancellationError.self) { try await builder.value }
        // Nothing was stored; the waiter tried again and built it.
        #expect(try await waiter.value.serial == 2)
        #expect(try await container.resolveAsync("cancel-builder", AsyncService.self).serial == 2)
    }

    @Test func cancelledBeforeWaitingThrowsAtOnce() async throws {
        let container = Container()
        let gate = AsyncGate()
        container.registerAsync(AsyncService.self, scope: .singleton) {
            await gate.wait()
            return AsyncService(serial: 1)
        }
        let builder = Task { try await container.resolveAsync(AsyncService.self) }
        await gate.untilWaiters(1)
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await container.resolveAsync(AsyncService.self)
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await gate.open()
        #expect(try await builder.value.serial == 1)
    }

    // MARK: Misuse

    @Test(.timeLimit(.minutes(1)))
    func synchronousResolutionOfAnAsyncRegistrationFailsAtOnce() async throws {
        let container = Container()
        let gate = AsyncGate()
        container.registerAsync(AsyncService.self, scope: .singleton) {
            await gate.wait()
            return AsyncService(serial: 1)
        }
        // While the async build is in progress, a synchronous resolution neither blocks nor traps.
        let builder = Task { try await container.resolveAsync(AsyncService.self) }
        await gate.untilWaiters(1)
        #expect(container.resolve(AsyncService.self) == nil)
        do {
            _ = try container.resolveOrThrow(AsyncService.self)
            Issue.record("expected asyncResolutionRequired")
        } catch let error as DIError {
            guard case .asyncResolutionRequired(let type, let name) = error else {
                Issue.record("expected asyncResolutionRequired, got \(error)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(AsyncService.self) && name == nil)
            #expect(error.description.contains("AsyncService"))
            #expect(error.description.contains("try await container.resolveAsync(AsyncService.self)"))
        }
        await gate.open()
        _ = try await builder.value
        // Built or not, the answer does not change.
        #expect(container.resolve(AsyncService.self) == nil)
    }

    // MARK: Helpers

    private func capture(_ body: () async throws -> Void) async -> Error? {
        do {
            try await body()
            return nil
        } catch { return error }
    }

    private func expectCycle(_ path: [String]?, _ body: () async throws -> Void) async {
        let error = await capture(body)
        guard case .circularDependency(let found)? = error as? DIError else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        if let path { #expect(found == path) }
        #expect(found.first == found.last)
    }
}

/// How many tasks wait for a registration's build (for tests that must let waiters arrive first).
enum BuildCoordinatorProbe {
    static func waiting(_ count: Int, for name: String) -> Bool {
        BuildCoordinator.shared.waiterCount(forJob: "WeaveDITests.AsyncService[\"\(name)\"]") >= count
    }
}
