extension Container {
    /// Runs a `Factory` key's default with its scope; what the default throws fails the resolution
    /// (a `DIError` as it is, another error as `factoryFailed`). A transient default runs directly
    /// (with cycle detection, like any factory) and is never stored, so keys cost no registry space
    /// until they are scoped. A scoped default is installed once in the root container — never
    /// displacing what is there, so a concurrent `register` wins — and resolved from there, so a
    /// `.singleton` default is built once per root container.
    @inlinable
    func resolveFactoryDefault<T>(
        _ makeDefault: @escaping @Sendable () throws -> T,
        key: RegistryKey,
        scope: Scope,
        site: @autoclosure () -> RegistrationSite
    ) throws(DIError) -> T {
        if scope.tag == .transient { return try runFactory(makeDefault, key: key, type: T.self) }
        let home = root ?? self
        do {
            return try home.resolveCore(key: key, type: T.self)
        } catch {
            // Only the default's own absence means "install it": a miss inside the installed
            // default (a `resolveOrThrow` it made) is the resolution's failure, and running the
            // default again would only repeat it.
            guard case .dependencyNotFound = error, !home.holdsRecord(under: key) else { throw error }
        }
        home.storeIfAbsent(key: key, scope: scope, site: site(), factory: makeDefault)
        return try home.resolveCore(key: key, type: T.self)
    }

    /// Whether this container or a parent ever held a registration under `keyID` (a slot, once
    /// made, stays). `false` proves a lookup would miss, without the cost of the miss.
    @inlinable
    func hasSlot(forKeyID keyID: UInt) -> Bool {
        var container: Container? = self
        while let current = container {
            if current.registry.slot(for: keyID) != nil { return true }
            container = current.parent
        }
        return false
    }

    /// Whether this container itself (not a parent) holds a registration under `key`.
    @usableFromInline
    func holdsRecord(under key: RegistryKey) -> Bool {
        guard let slot = registry.slot(for: key.id) else { return false }
        return slot.lock.withLock { slot.record(named: key.name) != nil }
    }

    /// Stores a registration under `key` unless one is already there. Unlike `store`, it neither
    /// replaces nor reports a duplicate: racing callers install one record between them.
    @usableFromInline
    func storeIfAbsent<T>(key: RegistryKey, scope: Scope, site: RegistrationSite, factory: @escaping @Sendable () throws -> T) {
        registry.withSlotForWriting(id: key.id) { slot, sequence in
            guard slot.lock.withLock({ slot.record(named: key.name) == nil }) else { return }
            // Made outside the slot lock (an allocation); the write lock keeps other writers out.
            let record = makeRecord(scope: scope, name: key.name, site: site, declaredDependencies: [], factory: factory)
            slot.lock.withLock { _ = slot.setRecord(record, named: key.name, sequence: sequence) }
        }
    }
}
