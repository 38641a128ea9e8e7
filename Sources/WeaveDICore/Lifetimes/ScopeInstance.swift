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
        let released: [CellKey: InstanceCell] = lock.withLock {
            ended = true
            for cell in cells.values { cell.isAbandoned = true }
            defer { cells = [:] }
            return cells
        }
        _ = released // released outside the lock: deinits may resolve or register
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
            if existing.recordID > record.uniqueID { return InstanceCell(recordID: record.uniqueID, type: record.type) }
            replaced = existing
        }
        let cell = InstanceCell(recordID: record.uniqueID, type: record.type)
        cells[key] = cell
        return cell
    }

    /// Drops the cell of `record` (replaced or unregistered), releasing its instance.
    func discardCell(of record: some ScopedRegistration, slot: UInt) {
        let key = CellKey(slot: slot, name: record.name)
        let discarded: InstanceCell? = lock.withLock {
            guard let cell = cells[key], cell.recordID == record.uniqueID else { return nil }
            return cells.removeValue(forKey: key)
        }
        _ = discarded // released outside the lock
    }
}

/// The scope instances a container resolves into when no task binds one.
final class ScopeStorage: @unchecked Sendable {
    private let current = Locked<[String: ScopeInstance]>([:])

    func instance(for scope: Scope) -> ScopeInstance {
        current.withLock { map in
            let name = scope.customName ?? scope.description
            if let existing = map[name], !existing.isEnded { return existing }
            let fresh = ScopeInstance(scope: scope)
            map[name] = fresh
            return fresh
        }
    }

    func end(_ scope: Scope) {
        take(scope)?.end()
    }

    /// Removes the current instance of `scope`, for the caller to end.
    func take(_ scope: Scope) -> ScopeInstance? {
        let name = scope.customName ?? scope.description
        return current.withLock { $0.removeValue(forKey: name) }
    }

    /// Gives up `record`'s cell in each current instance (its registration was replaced or removed).
    func discardCells(of record: some ScopedRegistration, slot: UInt) {
        let all = current.withLock { Array($0.values) }
        for instance in all { instance.discardCell(of: record, slot: slot) }
    }

    func endAll() {
        let all = current.withLock { map in
            defer { map = [:] }
            return Array(map.values)
        }
        for instance in all { instance.end() }
    }
}

/// Scope instances bound to the current task, per container.
enum ScopeBinding {
    struct Key: Hashable {
        let container: ObjectIdentifier
        let scope: String
    }

    @TaskLocal static var bound: [Key: ScopeInstance] = [:]
}
