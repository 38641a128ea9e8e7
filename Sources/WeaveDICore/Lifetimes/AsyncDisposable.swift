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
    /// every `AsyncDisposable` instance it held, newest first, each object once however many
    /// registrations reached it (a type and a protocol alias of it). Instances are released once
    /// they are all disposed. Also disposed, with the same reason:
    /// - instances of registrations replaced or removed while this instance was current;
    /// - an instance whose build was still running when this instance ended: its build keeps
    ///   nothing, disposes it, and its resolution fails with ``DIError/scopeEnded(scope:type:)``.
    ///
    /// Disposal started in a cancelled task runs in a task that is not cancelled, so a rollback in
    /// `dispose(reason:)` for ``DisposalReason/cancelled`` can still do its I/O. A second call (or a call after ``end()``)
    /// disposes nothing: ``end()`` already released the instances.
    public func end(reason: DisposalReason) async {
        let disposables: [any AsyncDisposable]
        let taken: ([CellKey: InstanceCell], [InstanceCell])
        lock.lock()
        if ended {
            lock.unlock()
            return
        }
        ended = true
        for cell in cells.values {
            cell.isAbandoned = true
            cell.endedScope = (self, reason)
        }
        for cell in retired where cell.ticket != nil {
            cell.isAbandoned = true
            cell.endedScope = (self, reason)
        }
        taken = (cells, retired)
        cells = [:]
        retired = []
        // A cell's instance is final once stored; these cells are no longer reachable from here.
        disposables = (Array(taken.0.values) + taken.1)
            .compactMap { cell in cell.disposable().map { (cell.creationOrder, $0) } }
            .sorted { $0.0 > $1.0 }
            .map(\.1)
            .filter { claimDisposal(of: $0) }
        lock.unlock()
        await Self.dispose(disposables, reason: reason)
        _ = taken // released after every disposal: a disposal may still use what others hold
    }

    /// Awaits the disposal of `disposables`, in order. In a cancelled task they run in an
    /// unstructured task awaited here, which does not inherit the cancellation (a rollback can
    /// still do its I/O); otherwise right here, which spares every request end a task hop.
    static func dispose(_ disposables: [any AsyncDisposable], reason: DisposalReason) async {
        guard !disposables.isEmpty else { return }
        if !Task.isCancelled {
            for disposable in disposables { await disposable.dispose(reason: reason) }
            return
        }
        await Task {
            for disposable in disposables { await disposable.dispose(reason: reason) }
        }.value
    }
}

extension InstanceCell {
    /// For a build that finished after its scope instance ended with ``ScopeInstance/end(reason:)``
    /// (so nothing was kept): the instance to dispose when it is `AsyncDisposable` and not an
    /// object the scope instance already disposed, with the reason, and the error the resolution
    /// fails with instead of handing out an instance whose request is over. `nil` otherwise.
    func unkeptDisposal<T>(of value: T) -> (disposable: (any AsyncDisposable)?, reason: DisposalReason, error: DIError)?
    {
        guard let (scopeInstance, reason) = endedScope else { return nil }
        guard let disposable = value as? any AsyncDisposable else { return nil }
        let claimed = scopeInstance.lock.withLock { scopeInstance.claimDisposal(of: disposable) }
        return (
            claimed ? disposable : nil, reason,
            DIError.scopeEnded(scope: scopeInstance.scope.name, type: T.self)
        )
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
    /// `include` is called with no WeaveDI lock held, so it may resolve from the container. One
    /// object registered under several keys (a type and a protocol alias) is disposed once.
    ///
    /// A server calls it once its services have stopped, for what is not a service (a database
    /// pool, a metrics exporter), so each is disposed after everything built from it
    /// (`ContainerServiceGroup` disposes each at its place in the dependency graph instead).
    public func disposeSingletons(where include: (any AsyncDisposable) -> Bool = { _ in true }) async {
        await disposeSingletons(of: nil, where: include)
    }

    /// Disposes the singleton registered under `type` and `name` in this container, like
    /// ``disposeSingletons(where:)`` (at most once, and not if that object was already disposed).
    /// For ordered teardown: a service group disposes each singleton at its place in the graph.
    package func disposeSingleton(_ type: Any.Type, name: String?) async {
        await disposeSingletons(of: RegistryKey(anyType: type, name: name), where: { _ in true })
    }

    private func disposeSingletons(of key: RegistryKey?, where include: (any AsyncDisposable) -> Bool) async {
        // Collected under the slot locks; `include` runs after, with no WeaveDI lock held (it may
        // resolve, even the type it is asked about).
        var candidates: [(slot: TypeSlot, record: RegistrationRecord, order: UInt64, instance: any AsyncDisposable)] =
            []
        // Each context registration of a key keeps its own singleton.
        for (slot, record, _) in registry.allEntries()
        where key == nil || (RegistryKey(anyType: record.type, name: record.name) == key) {
            slot.lock.withLock {
                // A registration with arguments keeps a singleton per argument value.
                let records = [record] + ((record as? ArgumentRecord)?.instanceRecords ?? [])
                for record in records {
                    if record.scopeTag == .singleton {
                        let singleton = unsafeDowncast(record, to: SingletonRecord.self)
                        if let disposable = singleton.disposable() {
                            candidates.append((slot, record, singleton.creationOrder, disposable))
                        }
                    } else if let async = record as? AsyncRecord, let cell = async.singletonCell,
                        let disposable = async.disposableSingleton()
                    {
                        candidates.append((slot, record, cell.creationOrder, disposable))
                    }
                }
            }
        }
        var chosen: [(order: UInt64, instance: any AsyncDisposable)] = []
        for candidate in candidates where include(candidate.instance) {
            // Claimed under the slot lock: a concurrent call disposes each registration's
            // instance once; `disposedObjects` makes it once per object across registrations.
            let claimed: Bool = candidate.slot.lock.withLock {
                if candidate.record.scopeTag == .singleton {
                    let singleton = unsafeDowncast(candidate.record, to: SingletonRecord.self)
                    if singleton.isDisposed { return false }
                    singleton.isDisposed = true
                } else if let cell = (candidate.record as? AsyncRecord)?.singletonCell {
                    if cell.isDisposed { return false }
                    cell.isDisposed = true
                }
                return true
            }
            if claimed, disposedSingletons.claim(candidate.instance) {
                chosen.append((candidate.order, candidate.instance))
            }
        }
        await ScopeInstance.dispose(chosen.sorted(by: { $0.order > $1.order }).map(\.instance), reason: .shutdown)
    }
}

/// The singleton objects a container disposed: one object reached through several registrations
/// (a type and a protocol alias) is disposed once. The objects are kept, so an identifier is never
/// reused while it is remembered (the registrations keep them alive anyway).
final class DisposedObjects: @unchecked Sendable {
    private let objects = Locked<[ObjectIdentifier: AnyObject]>([:])

    /// Whether `disposable` is to be disposed now: `false` for an object already claimed.
    func claim(_ disposable: any AsyncDisposable) -> Bool {
        guard type(of: disposable) is AnyClass else { return true }
        let object = disposable as AnyObject
        return objects.withLock { objects in
            if objects[ObjectIdentifier(object)] != nil { return false }
            objects[ObjectIdentifier(object)] = object
            return true
        }
    }
}
