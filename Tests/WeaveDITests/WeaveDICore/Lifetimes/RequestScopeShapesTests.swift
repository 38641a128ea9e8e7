import Foundation
import Synchronization
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// Request scopes in the shapes servers write them: a scope bound on a child container, a root
// registration that resolves through the root it captured, Factory keys, child tasks, one
// instance under two keys, builds still running when the request ends, re-registration
// mid-request, resolution with no binding at all.

/// A unit of work: counts its instances and records each disposal.
private final class UnitOfWork: AsyncDisposable, Committing {
    static let serials = Atomic<Int>(0)
    let serial = UnitOfWork.serials.add(1, ordering: .relaxed).newValue
    let disposals: DisposalRecorder

    init(_ disposals: DisposalRecorder) { self.disposals = disposals }

    func dispose(reason: DisposalReason) async {
        disposals.record("uow\(serial):\(reason):\(Task.isCancelled ? "cancelled-task" : "live-task")")
    }
}

private protocol Committing: Sendable {}

/// Thread-safe list of disposal events.
private final class DisposalRecorder: Sendable {
    private let events = LockedValue<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// A root singleton whose factory resolves a request-scoped type through the container it
/// captured (the root), as module factories write it.
private final class OrderService: Sendable {
    let container: Container
    init(container: Container) { self.container = container }
    /// Resolves the unit of work through the captured root, per call (a transient would too).
    var unitOfWork: UnitOfWork? { container.resolve(UnitOfWork.self) }
}

private final class KeyedWork: Sendable {
    static let serials = Atomic<Int>(0)
    let serial = KeyedWork.serials.add(1, ordering: .relaxed).newValue
}

extension Container {
    fileprivate static let keyedWork = Factory(scope: .request) { KeyedWork() }
}

@Suite("Request scopes in server shapes", .capturesLog)
struct RequestScopeShapesTests {
    // MARK: The binding holds whichever container the resolution goes through

    @Test func aScopeBoundOnAChildServesTheRootRegistrationsResolvedThroughTheCapturedRoot() async throws {
        let root = Container()
        let recorder = DisposalRecorder()
        root.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        root.register(OrderService.self) { [unowned root] in OrderService(container: root) }
        let child = Container(parent: root)

        var perRequest: [(direct: Int, throughRoot: Int)] = []
        for _ in 0..<3 {
            let pair: (Int, Int) = try await child.withScope(.request) {
                let direct = try #require(child.resolve(UnitOfWork.self))
                let service = try #require(child.resolve(OrderService.self))
                let viaRoot = try #require(service.unitOfWork)
                return (direct.serial, viaRoot.serial)
            }
            perRequest.append(pair)
        }
        for pair in perRequest { #expect(pair.direct == pair.throughRoot, "one unit of work per request") }
        #expect(Set(perRequest.map(\.direct)).count == 3, "a new unit of work for every request")
        #expect(recorder.all.count == 3, "each request's unit of work is disposed when it ends")
    }

    @Test func concurrentRequestsBoundOnAChildNeverShareAUnitOfWork() async throws {
        let root = Container()
        let recorder = DisposalRecorder()
        root.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        root.register(OrderService.self, scope: .singleton) { [unowned root] in OrderService(container: root) }
        let child = Container(parent: root)
        let serials = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await child.withScope(.request) {
                        await Task.yield()
                        let viaRoot = try #require(child.resolve(OrderService.self)?.unitOfWork)
                        let direct = try #require(child.resolve(UnitOfWork.self))
                        return [viaRoot.serial, direct.serial]
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for pair in serials { #expect(pair[0] == pair[1]) }
        #expect(Set(serials.map { $0[0] }).count == 32)
    }

    @Test func aRequestScopedFactoryKeyFollowsABindingOnAChild() async throws {
        let root = Container()
        let child = Container(parent: root)
        var seen: [Int] = []
        for _ in 0..<3 {
            let pair = try await child.withScope(.request) {
                (
                    try Container.keyedWork.resolveOrThrow(in: child).serial,
                    try Container.keyedWork.resolveOrThrow(in: child).serial
                )
            }
            #expect(pair.0 == pair.1, "one instance within the request")
            seen.append(pair.0)
        }
        #expect(Set(seen).count == 3, "a new instance for every request")
        // Through the root (the key's default lives there) while the child is bound: the same.
        let (viaChild, viaRoot) = try await child.withScope(.request) {
            (
                try Container.keyedWork.resolveOrThrow(in: child).serial,
                try Container.keyedWork.resolveOrThrow(in: root).serial
            )
        }
        #expect(viaChild == viaRoot)
    }

    @Test func childTasksAndAsyncLetSeeTheRequestsInstance() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        let child = Container(parent: container)
        try await child.withScope(.request) {
            let outer = try #require(child.resolve(UnitOfWork.self)).serial
            async let first = container.resolve(UnitOfWork.self)?.serial
            async let second = child.resolve(UnitOfWork.self)?.serial
            let grouped = await withTaskGroup(of: Int?.self) { group in
                group.addTask { container.resolve(UnitOfWork.self)?.serial }
                return await group.next() ?? nil
            }
            let values = await [first, second, grouped]
            #expect(values == [outer, outer, outer])
        }
    }

    @Test func asyncScopedRegistrationsFollowTheSameRule() async throws {
        let root = Container()
        let recorder = DisposalRecorder()
        root.registerAsync(UnitOfWork.self, scope: .request) {
            await Task.yield()
            return UnitOfWork(recorder)
        }
        let child = Container(parent: root)
        let pairs = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await child.withScope(.request) {
                        [
                            try await root.resolveAsync(UnitOfWork.self).serial,
                            try await child.resolveAsync(UnitOfWork.self).serial,
                        ]
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for pair in pairs { #expect(pair[0] == pair[1]) }
        #expect(Set(pairs.map { $0[0] }).count == 8)
        #expect(recorder.all.count == 8)
    }

    @Test func theNearestBindingWinsOverOneOnADescendant() async throws {
        let root = Container()
        root.register(KeyedWork.self, scope: .request) { KeyedWork() }
        let child = Container(parent: root)
        let outerInstance = root.beginScope(.request)
        let innerInstance = child.beginScope(.request)
        let (viaRoot, viaChild) = root.withScope(outerInstance) {
            child.withScope(innerInstance) {
                (root.resolve(KeyedWork.self)?.serial, child.resolve(KeyedWork.self)?.serial)
            }
        }
        #expect(viaRoot != viaChild, "the root's own binding serves the root; the child's the child")
        #expect(viaRoot == root.withScope(outerInstance) { root.resolve(KeyedWork.self)?.serial })
    }

    @Test func anInjectedKeyThatResolvesARequestScopedTypeFollowsTheRequest() async throws {
        let root = Container()
        root.register(ScopedThroughKey.self, scope: .request) { ScopedThroughKey() }
        let child = Container(parent: root)
        var rows: [[Int?]] = []
        for _ in 0..<3 {
            let row = await Container.withShared(child) {
                await child.withScope(.request) {
                    [
                        child.resolve(ScopedThroughKey.self)?.serial,
                        InjectedValues.current[ScopedThroughKeyKey.self]?.serial,
                        InjectedValues.current.scopedThroughKey?.serial,
                    ]
                }
            }
            rows.append(row)
        }
        for row in rows { #expect(Set(row).count == 1 && row[0] != nil, "\(rows)") }
        #expect(Set(rows.map { $0[0] }).count == 3, "a new instance per request: \(rows)")
    }

    @Test func aRequestScopedFactoryKeyUsesTheNearestBinding() async throws {
        let root = Container()
        root.register(KeyedWork.self, scope: .request) { KeyedWork() }
        let child = Container(parent: root)
        let rows: [[Int]] = try await root.withScope(.request) {
            var rows: [[Int]] = []
            for _ in 0..<2 {
                let row = try await child.withScope(.request) {
                    [
                        try Container.keyedWork.resolveOrThrow(in: child).serial,
                        try Container.keyedWork.resolveOrThrow(in: child).serial,
                    ]
                }
                rows.append(row)
            }
            rows.append([try Container.keyedWork.resolveOrThrow(in: root).serial])
            return rows
        }
        #expect(rows[0][0] == rows[0][1] && rows[1][0] == rows[1][1])
        #expect(Set([rows[0][0], rows[1][0], rows[2][0]]).count == 3, "each inner request and the outer one: \(rows)")
    }

    @Test func aSingletonReachedFromAChildAndItsParentIsDisposedOnce() async throws {
        let root = Container()
        let recorder = DisposalRecorder()
        root.register(UnitOfWork.self, scope: .singleton) { UnitOfWork(recorder) }
        let child = Container(parent: root)
        child.register((any Committing).self, scope: .singleton) { try root.resolveOrThrow(UnitOfWork.self) }
        _ = child.resolve((any Committing).self)
        await child.disposeSingletons()
        await root.disposeSingletons()
        #expect(recorder.all.count == 1, "\(recorder.all)")
    }

    // MARK: No binding

    @Test func withoutABindingACustomScopeUsesTheContainersCurrentInstanceUntilEndScope() {
        let container = Container()
        container.register(KeyedWork.self, scope: .session) { KeyedWork() }
        let first = container.resolve(KeyedWork.self)?.serial
        #expect(container.resolve(KeyedWork.self)?.serial == first)
        container.endScope(.session)
        #expect(container.resolve(KeyedWork.self)?.serial != first)
    }

    @Test func aScopeThatMustBeBoundFailsOutsideABindingWithAnErrorThatSaysWhatToDo() async throws {
        let root = Container()
        root.register(KeyedWork.self, scope: .request) { KeyedWork() }
        let child = Container(parent: root)
        child.requireBinding(of: .request)
        for container in [root, child] {
            let error = #expect(throws: DIError.self) { try container.resolveOrThrow(KeyedWork.self) }
            guard case .scopeNotBound(let scope, _) = error else {
                Issue.record("expected scopeNotBound, got \(String(describing: error))")
                continue
            }
            #expect(scope == "request")
            #expect(error?.description.contains("withScope") == true)
            #expect(error?.description.contains("KeyedWork") == true)
        }
        // A detached task started inside a request has no binding either; the request's does.
        await child.withScope(.request) {
            #expect(child.resolve(KeyedWork.self) != nil)
            let capture = LogCapture.current
            let detached = await Task.detached {
                withCurrentLogCapture(capture) { try? child.resolveOrThrow(KeyedWork.self) }
            }.value
            #expect(detached == nil)
        }
        #expect(capturedProblems(mentioning: "no instance of that scope is bound").count == 3, "\(capturedLog)")
        // Other custom scopes keep the container's current instance.
        root.register(UnitOfWork.self, scope: .session) { UnitOfWork(DisposalRecorder()) }
        #expect(child.resolve(UnitOfWork.self) != nil)
    }

    // MARK: Disposal at most once per object

    @Test func anInstanceUnderTwoKeysIsDisposedOncePerRequest() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        container.register((any Committing).self, scope: .request) { [unowned container] in
            container.resolve(UnitOfWork.self)!
        }
        try await container.withScope(.request) {
            let concrete = try #require(container.resolve(UnitOfWork.self))
            let alias = try #require(container.resolve((any Committing).self))
            #expect(alias as AnyObject === concrete)
        }
        #expect(recorder.all.count == 1, "\(recorder.all)")
    }

    @Test func aSingletonUnderTwoKeysIsDisposedOnceAtShutdown() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .singleton) { UnitOfWork(recorder) }
        container.register((any Committing).self, scope: .singleton) { [unowned container] in
            container.resolve(UnitOfWork.self)!
        }
        _ = container.resolve((any Committing).self)
        await container.disposeSingletons()
        await container.disposeSingletons()
        #expect(recorder.all.count == 1, "\(recorder.all)")
    }

    @Test func disposeSingletonsRunsItsPredicateWithNoLockHeld() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .singleton) { UnitOfWork(recorder) }
        _ = container.resolve(UnitOfWork.self)
        let asked = DisposalRecorder()
        // The predicate asks the container about the very type it is called for, and registers.
        // (In a task of its own, polled: a deadlock fails the test instead of hanging it.)
        let finished = DisposalRecorder()
        Task {
            await container.disposeSingletons { candidate in
                asked.record("asked")
                container.register(KeyedWork.self) { KeyedWork() }
                return container.resolve(UnitOfWork.self) === (candidate as AnyObject)
            }
            finished.record("done")
        }
        let done = await eventually(within: .seconds(20)) { !finished.all.isEmpty }
        #expect(done, "disposeSingletons(where:) returned")
        #expect(asked.all.count == 1)
        #expect(recorder.all.count == 1)
    }

    // MARK: Teardown of what a request built

    @Test func anInstanceBuiltAfterItsRequestEndedIsDisposedNotHandedOut() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        let factoryEntered = AsyncGate()
        let mayFinish = AsyncGate()
        container.registerAsync(UnitOfWork.self, scope: .request) {
            await factoryEntered.open()
            await mayFinish.wait()
            return UnitOfWork(recorder)
        }
        let instance = container.beginScope(.request)
        let resolution = Task {
            try await container.withScope(instance) { try await container.resolveAsync(UnitOfWork.self) }
        }
        await factoryEntered.wait()
        await instance.end(reason: .completed) // the request ends while the factory runs
        await mayFinish.open()
        let result = await resolution.result
        guard case .failure(let error) = result, case .scopeEnded? = error as? DIError else {
            Issue.record("expected scopeEnded, got \(result)")
            return
        }
        #expect(recorder.all.count == 1)
        #expect(recorder.all.first?.contains(":completed:") == true)
    }

    @Test func aSynchronousBuildFinishingAfterItsRequestEndedIsDisposedToo() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        container.register(UnitOfWork.self, scope: .request) {
            entered.signal()
            release.wait()
            return UnitOfWork(recorder)
        }
        let instance = container.beginScope(.request)
        let outcome = LockedValue<Result<UnitOfWork, DIError>?>(nil)
        let capture = LogCapture.current
        let thread = Thread {
            let result = withCurrentLogCapture(capture) {
                container.withScope(instance) { () -> Result<UnitOfWork, DIError> in
                    do {
                        return .success(try container.resolveOrThrow(UnitOfWork.self))
                    } catch {
                        return .failure(error as! DIError)
                    }
                }
            }
            outcome.withLock { $0 = result }
        }
        thread.start()
        await Task.detached { entered.wait() }.value
        await instance.end(reason: .cancelled)
        release.signal()
        let finished = await eventually(within: .seconds(20)) {
            outcome.withLock({ $0 }) != nil && !recorder.all.isEmpty
        }
        #expect(finished)
        guard case .failure(.scopeEnded) = outcome.withLock({ $0 }) else {
            Issue.record("expected scopeEnded, got \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(recorder.all.count == 1)
        #expect(recorder.all.first?.contains(":cancelled:") == true)
    }

    @Test func reRegisteringMidRequestDisposesTheReplacedInstanceWhenTheRequestEnds() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        let serials: [Int] = try await container.withScope(.request) {
            let first = try #require(container.resolve(UnitOfWork.self)).serial
            container.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
            let second = try #require(container.resolve(UnitOfWork.self)).serial
            #expect(recorder.all.isEmpty, "nothing is disposed while the request runs")
            return [first, second]
        }
        #expect(serials[0] != serials[1])
        #expect(recorder.all.count == 2, "\(recorder.all)")
    }

    @Test func anAwaitedWithScopeWhoseClosureDoesNotAwaitStillDisposes() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        await container.withScope(.request) { _ = container.resolve(UnitOfWork.self) }
        #expect(recorder.all.count == 1)
        try await container.withScope(.request) { () throws -> Void in
            _ = try container.resolveOrThrow(UnitOfWork.self)
        }
        #expect(recorder.all.count == 2)
    }

    @Test func cancelledDisposalRunsOutsideTheCancelledTask() async throws {
        let container = Container()
        let recorder = DisposalRecorder()
        container.register(UnitOfWork.self, scope: .request) { UnitOfWork(recorder) }
        let started = AsyncGate()
        let task = Task {
            try await container.withScope(.request) {
                _ = container.resolve(UnitOfWork.self)
                await started.open()
                try await Task.sleep(for: .seconds(30))
            }
        }
        await started.wait()
        task.cancel()
        _ = await task.result
        #expect(recorder.all.count == 1)
        #expect(recorder.all.first?.hasSuffix(":cancelled:live-task") == true, "\(recorder.all)")
    }

    @Test func slowResolutionHooksOfAsyncFactoriesRunOnceTheInstanceIsStored() async throws {
        let container = Container()
        let storedWhenReported = LockedValue<[Bool]>([])
        container.registerAsync(SlowAsyncSingleton.self, scope: .singleton) {
            try? await Task.sleep(for: .milliseconds(20))
            return SlowAsyncSingleton()
        }
        let token = UnifiedDI.onSlowResolution(threshold: 0.005) { name, _ in
            guard name.contains("SlowAsyncSingleton") else { return }
            storedWhenReported.withLock { $0.append(container.holdsAsyncSingleton(SlowAsyncSingleton.self)) }
        }
        defer { token.cancel() }
        _ = try await container.resolveAsync(SlowAsyncSingleton.self)
        #expect(storedWhenReported.withLock { $0 } == [true])
    }
}

private final class SlowAsyncSingleton: Sendable {}

private final class ScopedThroughKey: Sendable {
    let serial = KeyedWork.serials.add(1, ordering: .relaxed).newValue
}

/// An `InjectedKey` whose value resolves a request-scoped type, as apps write one.
private struct ScopedThroughKeyKey: InjectedKey {
    static var liveValue: ScopedThroughKey? { Container.shared.resolve(ScopedThroughKey.self) }
}

extension InjectedValues {
    fileprivate var scopedThroughKey: ScopedThroughKey? {
        get { self[ScopedThroughKeyKey.self] }
        set { self[ScopedThroughKeyKey.self] = newValue }
    }
}

/// Polls `condition` every few milliseconds until it holds (`true`) or `limit` passes (`false`).
private func eventually(within limit: Duration, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

extension Container {
    /// Whether the async singleton registered for `type` holds its instance (tests only).
    fileprivate func holdsAsyncSingleton<T>(_ type: T.Type) -> Bool {
        guard let slot = registry.slot(for: RegistryKey(T.self).id) else { return false }
        return slot.lock.withLock {
            guard let record = slot.record(named: nil) as? AsyncRecord, let cell = record.singletonCell else {
                return false
            }
            return cell.hasInstance
        }
    }
}
