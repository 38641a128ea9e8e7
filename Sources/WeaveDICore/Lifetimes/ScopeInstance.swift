// Concurrency model (Reliability/ConcurrencyModel article): a scope instance holds one cell per
// registration key, guarded by its own lock. A cell goes empty → building (a `BuildTicket`) →
// built, like a singleton's storage (`Container.resolveShared`). `end()` marks the instance ended
// and every cell abandoned under the lock: a build still running in an abandoned cell keeps
// nothing, and its waiters look again — in the container's new current instance, or they fail
// with `scopeEnded` when the ended instance was bound by `withScope`. A resolution that finds the
// container's current instance ended takes the next one (`endScope` promises a new instance), so
// `endScope` racing a resolution never fails it.

/// One instance of a custom scope: the instances of every registration in that scope, resolved
/// while it is current.
///
/// Get one from ``Container/beginScope(_:)``, make it current with
/// ``Container/withScope(_:operation:)-(ScopeInstance,_)``, and ``end()`` it to release what it holds.
/// ``Container/withScope(_:operation:)-(Scope,_)`` does all three around one operation, which is
/// what a server does per request.
public final class ScopeInstance: @unchecked Sendable {
    /// The scope this is an instance of.
    public let scope: Scope
    @usableFromInline let lock = WordLock()
    /// Instance cells by registration key (guarded by `lock`): at most one per key, so replacing a
    /// registration never leaves a scope instance holding the replaced one's instances.
    var cells: [CellKey: InstanceCell] = [:]
    /// Guarded by `lock`.
    @usableFromInline var ended = false
    /// Cells of registrations replaced or removed while this instance was current, whose instance
    /// may need disposing (built `AsyncDisposable`, or still being built): disposed when the
    /// instance ends, not dropped undisposed. Guarded by `lock`.
    var retired: [InstanceCell] = []
    /// The objects this instance disposed, kept so that an object reached through two
    /// registrations (a type and a protocol alias) is disposed once, and so that an identifier
    /// is never reused while it is remembered. Guarded by `lock`.
    private var disposedObjects: [ObjectIdentifier: AnyObject] = [:]

    /// Which registration a cell serves: its registry slot (the address of the slot's lock word,
    /// unique while its container lives) and its name. The cell also remembers the registration
    /// itself (``InstanceCell/recordID``), since a re-registration reuses the slot.
    struct CellKey: Hashable {
        let slot: UInt
        let name: String?
    }

    init(scope: Scope) { self.scope = scope }

    deinit { lock.deallocate() }

    /// Whether ``end()`` was called. Resolving a registration of this scope in an ended instance
    /// fails with ``DIError/scopeEnded(scope:type:)``.
    public var isEnded: Bool { lock.withLock { ended } }

    /// The number of instances this scope instance holds (built, not being built).
    var instanceCount: Int { lock.withLock { cells.values.filter(\.hasInstance).count } }

    /// Ends the scope instance and releases every instance it holds. A build still running in it
    /// finishes for the resolution that started it, but nothing is kept: threads waiting for that
    /// build look again (in the container's next instance of the scope, or fail with
    /// ``DIError/scopeEnded(scope:type:)`` when the ended instance was bound with `withScope`).
    public func end() {
        let released: ([CellKey: InstanceCell], [InstanceCell]) = lock.withLock {
            ended = true
            for cell in cells.values { cell.isAbandoned = true }
            defer {
                cells = [:]
                retired = []
            }
            return (cells, retired)
        }
        _ = released // released outside the lock: deinits may resolve or register
    }

    /// Whether `disposable` is to be disposed now: `false` when it is an object this instance
    /// already disposed (reached through another registration). Call with the lock held.
    func claimDisposal(of disposable: any AsyncDisposable) -> Bool {
        lock.assertHeld()
        guard type(of: disposable) is AnyClass else { return true }
        let object = disposable as AnyObject
        let id = ObjectIdentifier(object)
        if disposedObjects[id] != nil { return false }
        disposedObjects[id] = object
        return true
    }

    /// The cell for `record` in slot `slot`, created on first use; call with the lock held.
    ///
    /// A cell of an earlier registration of the same key is dropped (returned in `replaced`, to be
    /// released after the lock; a build still running in it finishes for the threads that asked
    /// for that registration). A resolution of a registration that was replaced after it looked
    /// it up, arriving after the newer one made its cell, gets a cell of its own that the scope
    /// instance does not keep.
    func cell<Record: ScopedRegistration>(for record: Record, slot: UInt, replaced: inout InstanceCell?) -> InstanceCell
    {
        lock.assertHeld()
        let key = CellKey(slot: slot, name: record.name)
        if let existing = cells[key] {
            if existing.recordID == record.uniqueID { return existing }
            if existing.recordID > record.uniqueID {
                // Kept with the retired cells: what it builds is disposed when this instance ends.
                let orphan = InstanceCell(recordID: record.uniqueID, type: record.type)
                retired.append(orphan)
                return orphan
            }
            replaced = existing
            retireIfDisposable(existing)
        }
        let cell = InstanceCell(recordID: record.uniqueID, type: record.type)
        cells[key] = cell
        return cell
    }

    /// Keeps a replaced or removed cell until the instance ends when what it holds (or is
    /// building) may be `AsyncDisposable`; call with the lock held.
    private func retireIfDisposable(_ cell: InstanceCell) {
        if cell.ticket != nil || cell.disposable() != nil { retired.append(cell) }
    }

    /// Drops the cell of `record` (replaced or unregistered), releasing its instance (an
    /// `AsyncDisposable` one is disposed when this scope instance ends).
    func discardCell(of record: some ScopedRegistration, slot: UInt) {
        let key = CellKey(slot: slot, name: record.name)
        let discarded: InstanceCell? = lock.withLock {
            guard let cell = cells[key], cell.recordID == record.uniqueID else { return nil }
            retireIfDisposable(cell)
            return cells.removeValue(forKey: key)
        }
        _ = discarded // released outside the lock
    }
}

/// The scope instances a container resolves into when no task binds one, and the scopes that
/// must be bound (``Container/requireBinding(of:)``).
final class ScopeStorage: @unchecked Sendable {
    private struct State {
        var current: [String: ScopeInstance] = [:]
        var bindingRequired: Set<String> = []
    }

    private let state = Locked(State())

    /// The current instance of `scope`, started if there is none (or it ended).
    func instance(for scope: Scope) -> ScopeInstance {
        state.withLock { state in
            let name = scope.name
            if let existing = state.current[name], !existing.isEnded { return existing }
            let fresh = ScopeInstance(scope: scope)
            state.current[name] = fresh
            return fresh
        }
    }

    /// Whether ``Container/requireBinding(of:)`` was called for the scope named `name`.
    func requiresBinding(of name: String) -> Bool {
        state.withLock { $0.bindingRequired.contains(name) }
    }

    func requireBinding(of scope: Scope) {
        let previous: ScopeInstance? = state.withLock { state in
            state.bindingRequired.insert(scope.name)
            return state.current.removeValue(forKey: scope.name)
        }
        previous?.end()
    }

    func end(_ scope: Scope) {
        take(scope)?.end()
    }

    /// Removes the current instance of `scope`, for the caller to end.
    func take(_ scope: Scope) -> ScopeInstance? {
        state.withLock { $0.current.removeValue(forKey: scope.name) }
    }

    /// Gives up `record`'s cell in each current instance (its registration was replaced or removed).
    func discardCells(of record: some ScopedRegistration, slot: UInt) {
        let all = state.withLock { Array($0.current.values) }
        for instance in all { instance.discardCell(of: record, slot: slot) }
    }

    func endAll() {
        let all = state.withLock { state in
            defer { state.current = [:] }
            return Array(state.current.values)
        }
        for instance in all { instance.end() }
    }
}

/// The scope instances bound to the current task (``Container/withScope(_:operation:)-(ScopeInstance,_)``),
/// innermost last. Each binding remembers the bound container's lineage, so a resolution through
/// an ancestor (a root registration's factory resolving through the root it captured, a Factory
/// key's scoped default installed in the root) finds the binding made on a child.
enum ScopeBinding {
    struct Binding {
        /// The scope's name (``Scope/customName``).
        let scope: String
        /// The bound container, then its parent, up to its root.
        let lineage: [ObjectIdentifier]
        let instance: ScopeInstance
    }

    @TaskLocal static var bound: [Binding] = []

    /// The bindings of the current task plus `instance` bound on `container`.
    static func adding(_ instance: ScopeInstance, on container: Container) -> [Binding] {
        var lineage: [ObjectIdentifier] = []
        var current: Container? = container
        while let next = current {
            lineage.append(next.identity)
            current = next.parent
        }
        var bindings = bound
        bindings.append(Binding(scope: instance.scope.name, lineage: lineage, instance: instance))
        return bindings
    }

    /// The scope instance of `scope` a resolution through `requester` uses, if the task binds one
    /// that applies (the rule is written in the Concurrency Model article):
    /// 1. one bound on `requester` or the nearest of its ancestors (innermost first);
    /// 2. otherwise the innermost one bound on a descendant of `requester`.
    static func instance(of scope: String, for requester: Container, in bindings: [Binding]) -> ScopeInstance? {
        var container: Container? = requester
        while let current = container {
            let id = current.identity
            for binding in bindings.reversed() where binding.scope == scope && binding.lineage[0] == id {
                return binding.instance
            }
            container = current.parent
        }
        let id = requester.identity
        for binding in bindings.reversed() where binding.scope == scope && binding.lineage.contains(id) {
            return binding.instance
        }
        return nil
    }
}
