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
    @usableFromInline let lock = SlotLock()
    /// Instance cells by registration record (guarded by `lock`).
    @usableFromInline var cells: [UInt64: InstanceCell] = [:]
    @usableFromInline var ended = false

    init(scope: Scope) { self.scope = scope }

    deinit { lock.deallocate() }

    /// Whether ``end()`` was called. Resolving a registration of this scope in an ended instance
    /// fails with ``DIError/scopeEnded(scope:type:)``.
    public var isEnded: Bool { lock.withLock { ended } }

    /// The number of instances this scope instance holds.
    public var instanceCount: Int { lock.withLock { cells.count } }

    /// Ends the scope instance and releases every instance it holds.
    public func end() {
        let released: [UInt64: InstanceCell] = lock.withLock {
            ended = true
            defer { cells = [:] }
            return cells
        }
        _ = released  // released outside the lock: deinits may resolve or register
    }

    /// The cell for `record`, created on first use; call with the lock held.
    @usableFromInline
    func cell(for record: ScopedRecord) -> InstanceCell {
        let id = record.uniqueID
        if let existing = cells[id] { return existing }
        let cell = InstanceCell(type: record.type)
        cells[id] = cell
        return cell
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
        let name = scope.customName ?? scope.description
        let instance = current.withLock { $0.removeValue(forKey: name) }
        instance?.end()
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
