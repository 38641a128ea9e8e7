import Atomics

/// Why an ``AsyncDisposable`` instance is being disposed.
public enum DisposalReason: Sendable, Hashable {
    /// The scope instance's work finished normally (a request answered, say): commit.
    case completed
    /// The work the scope instance served threw an error: roll back.
    case failed
    /// The work was cancelled (the client went away, the task was cancelled): roll back.
    case cancelled
    /// The container is shutting down (``Container/disposeSingletons(where:)``).
    case shutdown
}

/// An instance that releases what it holds asynchronously — commits or rolls back a transaction,
/// flushes a buffer, closes a connection — when the scope instance holding it ends or its
/// container shuts down.
///
/// WeaveDI calls ``dispose(reason:)`` at most once per built instance: for a custom-scope instance
/// when its scope instance ends with ``ScopeInstance/end(reason:)`` (which the async
/// ``Container/withScope(_:isolation:operation:)-(Scope,_,_)`` and server integrations do), for a
/// singleton in ``Container/disposeSingletons(where:)``. Instances are disposed newest first, so
/// an instance is disposed before what it was built from. The synchronous ``ScopeInstance/end()``
/// releases instances without disposing them.
///
/// ```swift
/// final class UnitOfWork: AsyncDisposable {
///     func dispose(reason: DisposalReason) async {
///         if reason == .completed { await commit() } else { await rollback() }
///     }
/// }
/// ```
public protocol AsyncDisposable: Sendable {
    /// Releases the instance's resources; `reason` says why its scope instance ended.
    func dispose(reason: DisposalReason) async
}

/// The order in which shared instances were stored, process-wide: disposal runs newest first.
enum InstanceCreationOrder {
    private static let counter = UnsafeAtomic<UInt64>.create(0)

    /// The next position (never 0); called once per stored instance, under its storage's lock.
    static func next() -> UInt64 { counter.wrappingIncrementThenLoad(ordering: .relaxed) }
}

extension ScopeInstance {
    /// Ends the scope instance like ``end()``, then awaits ``AsyncDisposable/dispose(reason:)`` of
    /// every `AsyncDisposable` instance it held, newest first, each exactly once. Instances are
    /// released once they are all disposed. A second call (or a call after ``end()``) disposes
    /// nothing: ``end()`` already released the instances.
    public func end(reason: DisposalReason) async {
        let taken: [CellKey: InstanceCell] = lock.withLock {
            ended = true
            for cell in cells.values { cell.isAbandoned = true }
            defer { cells = [:] }
            return cells
        }
        // Read outside the lock: a cell's instance is final once stored, and these cells are
        // no longer reachable from the scope instance.
        let disposables = taken.values
            .compactMap { cell in cell.disposable().map { (cell.creationOrder, $0) } }
            .sorted { $0.0 > $1.0 }
        for (_, disposable) in disposables { await disposable.dispose(reason: reason) }
        _ = taken // released after every disposal: a disposal may still use what others hold
    }
}

extension Container {
    /// Ends the container's current instance of `scope` like ``endScope(_:)``, awaiting the
    /// disposal of what it held (``ScopeInstance/end(reason:)``).
    public func endScope(_ scope: Scope, reason: DisposalReason) async {
        guard let instance = scopes.take(scope) else { return }
        await instance.end(reason: reason)
    }

    /// Awaits ``AsyncDisposable/dispose(reason:)`` with ``DisposalReason/shutdown`` of this
    /// container's built singletons (not its parents') that conform to `AsyncDisposable` and for
    /// which `include` returns `true`, newest first; each singleton is disposed at most once
    /// however often this is called. The singletons stay registered and built: a shutting-down
    /// process releases the container itself.
    ///
    /// A server calls it once its services have stopped, for what is not a service (a database
    /// pool, a metrics exporter), so each is disposed after everything built from it.
    public func disposeSingletons(where include: (any AsyncDisposable) -> Bool = { _ in true }) async {
        var chosen: [(order: UInt64, instance: any AsyncDisposable)] = []
        registry.forEachSlot { slot in
            slot.lock.withLock {
                for record in slot.allRecords {
                    if record.scopeTag == .singleton {
                        let singleton = unsafeDowncast(record, to: SingletonRecord.self)
                        guard let disposable = singleton.disposable(), include(disposable) else { continue }
                        singleton.isDisposed = true
                        chosen.append((singleton.creationOrder, disposable))
                    } else if let async = record as? AsyncRecord, let cell = async.singletonCell,
                        let disposable = async.disposableSingleton(), include(disposable)
                    {
                        cell.isDisposed = true
                        chosen.append((cell.creationOrder, disposable))
                    }
                }
            }
        }
        for (_, disposable) in chosen.sorted(by: { $0.order > $1.order }) {
            await disposable.dispose(reason: .shutdown)
        }
    }
}
