import Testing

@testable import WeaveDI
@testable import WeaveDICore

/// Records dispose calls in order, across tasks.
private actor DisposalLog {
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}

private final class Disposable: AsyncDisposable {
    let label: String
    let log: DisposalLog
    init(_ label: String, log: DisposalLog) {
        self.label = label
        self.log = log
    }
    func dispose(reason: DisposalReason) async { await log.append("\(label):\(reason)") }
}

private protocol First: Sendable {}
private protocol Second: Sendable {}
private protocol Third: Sendable {}
private final class FirstImpl: First, AsyncDisposable {
    let inner: Disposable
    init(_ inner: Disposable) { self.inner = inner }
    func dispose(reason: DisposalReason) async { await inner.dispose(reason: reason) }
}
private final class SecondImpl: Second, AsyncDisposable {
    let inner: Disposable
    init(_ inner: Disposable) { self.inner = inner }
    func dispose(reason: DisposalReason) async { await inner.dispose(reason: reason) }
}
private struct NotDisposable: Third {}

private func resolveAfterYield(_ container: Container) async {
    await Task.yield()
    _ = container.resolve(First.self)
}

@Suite("Async disposal")
struct DisposalTests {
    /// `first` is built before `second` (which depends on it) and so disposed after it.
    private func register(in container: Container, scope: Scope, log: DisposalLog) {
        container.register(First.self, scope: scope) { FirstImpl(Disposable("first", log: log)) }
        container.register(Second.self, scope: scope) { [weak container] in
            _ = container?.resolve(First.self)
            return SecondImpl(Disposable("second", log: log))
        }
        container.register(Third.self, scope: scope) { NotDisposable() }
    }

    @Test func scopeEndDisposesNewestFirstOnce() async {
        let container = Container()
        let log = DisposalLog()
        register(in: container, scope: .request, log: log)
        let instance = container.beginScope(.request)
        container.withScope(instance) {
            _ = container.resolve(Second.self)
            _ = container.resolve(Third.self)
        }
        await instance.end(reason: .completed)
        await instance.end(reason: .failed)
        #expect(await log.entries == ["second:completed", "first:completed"])
        #expect(instance.isEnded)
        #expect(instance.instanceCount == 0)
    }

    @Test func withScopeDisposesWithTheOperationsOutcome() async {
        struct Failure: Error {}
        let container = Container()
        let log = DisposalLog()
        register(in: container, scope: .request, log: log)
        // (An operation that awaits picks the async `withScope`; a synchronous one ends its
        // instance with `end()`, which cannot await a disposal.)
        await container.withScope(.request) { await resolveAfterYield(container) }
        await #expect(throws: Failure.self) {
            try await container.withScope(.request) {
                await resolveAfterYield(container)
                throw Failure()
            }
        }
        await #expect(throws: CancellationError.self) {
            try await container.withScope(.request) {
                await resolveAfterYield(container)
                throw CancellationError()
            }
        }
        #expect(await log.entries == ["first:completed", "first:failed", "first:cancelled"])
    }

    @Test func cancelledTaskDisposesAsCancelled() async {
        let container = Container()
        let log = DisposalLog()
        register(in: container, scope: .request, log: log)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await container.withScope(.request) { await resolveAfterYield(container) }
        }
        await task.value
        #expect(await log.entries == ["first:cancelled"])
    }

    @Test func endScopeWithReasonDisposesTheCurrentInstance() async {
        let container = Container()
        let log = DisposalLog()
        register(in: container, scope: .session, log: log)
        _ = container.resolve(Second.self)
        await container.endScope(.session, reason: .completed)
        #expect(await log.entries == ["second:completed", "first:completed"])
        // The next resolution starts a new instance.
        _ = container.resolve(First.self)
        await container.endScope(.session, reason: .shutdown)
        #expect(await log.entries.last == "first:shutdown")
    }

    @Test func singletonsDisposeNewestFirstOnceAndOnlyThoseIncluded() async {
        let container = Container()
        let log = DisposalLog()
        register(in: container, scope: .singleton, log: log)
        _ = container.resolve(Second.self)
        _ = container.resolve(Third.self)
        await container.disposeSingletons { !($0 is SecondImpl) }
        #expect(await log.entries == ["first:shutdown"])
        await container.disposeSingletons()
        await container.disposeSingletons()
        #expect(await log.entries == ["first:shutdown", "second:shutdown"])
        // Disposed singletons stay built and registered.
        #expect(container.resolve(First.self) != nil)
    }

    @Test func unbuiltSingletonsAreNotBuiltToBeDisposed() async {
        let container = Container()
        let log = DisposalLog()
        register(in: container, scope: .singleton, log: log)
        await container.disposeSingletons()
        #expect(await log.entries.isEmpty)
    }
}
