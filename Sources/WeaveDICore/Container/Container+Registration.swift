extension Container {
    /// Registers `factory` to build `type`; registering the same type again replaces the earlier
    /// registration (see ``duplicatePolicy``). Nothing is built until `type` is resolved.
    ///
    /// - Parameters:
    ///   - type: the type resolutions ask for (often a protocol).
    ///   - scope: how long built instances live; ``Scope/transient`` (a new one per resolution) by default.
    ///   - factory: builds the instance. It may resolve other types and register; if it throws,
    ///     the resolution fails with ``DIError/factoryFailed(_:name:underlying:)``.
    ///   - file: where the registration is made, for messages (filled in by the compiler).
    ///   - line: the line of the registration, for messages (filled in by the compiler).
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        store(
            key: RegistryKey(type), scope: scope, dependencies: [],
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Registers `factory` to build `type` under `name`, alongside any unnamed registration.
    @discardableResult
    public func register<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        store(
            key: RegistryKey(type, name: name), scope: scope, dependencies: [],
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Registers an existing instance: every resolution of `type` returns it.
    ///
    /// The `instance:` label is always written: a trailing closure goes to the factory form, also
    /// when `type` is one a closure converts to (`Any`, `Any?`, `any Sendable`), so
    /// `register(Any.self) { 42 }` registers a factory that builds `42`.
    @discardableResult
    @_disfavoredOverload
    public func register<T>(_ type: T.Type, instance: T, file: String = #fileID, line: Int = #line)
        -> RegistrationHandle
    {
        store(key: RegistryKey(type), site: RegistrationSite(fileID: file, line: line), instance: instance)
    }

    /// Registers an existing instance under `name` (a trailing closure goes to the factory form,
    /// as for ``register(_:instance:file:line:)``).
    @discardableResult
    @_disfavoredOverload
    public func register<T>(_ name: String, _ type: T.Type, instance: T, file: String = #fileID, line: Int = #line)
        -> RegistrationHandle
    {
        store(key: RegistryKey(type, name: name), site: RegistrationSite(fileID: file, line: line), instance: instance)
    }

    /// Removes the registration of `type` (under `name`), releasing any instance it cached.
    /// Returns whether there was one.
    @discardableResult
    public func unregister<T>(_ type: T.Type, name: String? = nil) -> Bool {
        remove(key: RegistryKey(type, name: name), onlyIf: nil)
    }

    // MARK: Storage

    /// Stores a registration of `factory` under `key` (any key: a type's, or a `Factory` key's).
    package func store<T>(
        key: RegistryKey,
        scope: Scope,
        dependencies: [Any.Type],
        site: RegistrationSite,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: scope, site: site) {
            makeRecord(scope: scope, name: key.name, site: site, declaredDependencies: dependencies, factory: factory)
        }
    }

    /// Stores `instance` as a singleton under `key`.
    package func store<T>(key: RegistryKey, site: RegistrationSite, instance: T) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: .singleton, site: site) {
            SingletonRecord(name: key.name, site: site, instance: instance)
        }
    }

    /// Puts the record `make` builds into the slot for `key`, applying the duplicate policy.
    ///
    /// Everything here is non-generic; `make` erases the factory. The record goes straight into
    /// its slot: the handle identifies it by its sequence number, so registering retains nothing
    /// but what the slot keeps.
    func insert(
        key: RegistryKey, type: Any.Type, scope: Scope, site: RegistrationSite, context: RegistrationContext? = nil,
        _ make: () -> RegistrationRecord
    ) -> RegistrationHandle {
        // A factory registering while a validation runs on this thread registers in the sandbox
        // standing for this container, as its resolutions resolve there.
        if autoRegistrationWord.load(ordering: .relaxed) & Container.divertedBit != 0, let sandbox = divertedTarget(),
            sandbox !== self
        {
            return sandbox.insert(key: key, type: type, scope: scope, site: site, context: context, make)
        }
        let rejects = duplicatePolicy == .reject
        // `registerAllServices()` running: what was registered before the run stays.
        let keptUpTo = keptByAutoRegistration()
        var replaced: RegistrationRecord?
        // A key with context registrations: the record the slot held (released after the lock).
        var replacedWrapper: RegistrationRecord?
        var rejectedBy: RegistrationSite?
        var kept = false
        let sequence = registry.withSlotForWriting(id: key.id) { slot, sequence in
            slot.lock.withLock {
                // A plain registration in a slot that never held a context registration: the
                // path of every registration before contexts, with no extra look-up.
                guard context != nil || slot.hasContexts else {
                    if let keptUpTo, let earlier = slot.sequence(named: key.name), earlier <= keptUpTo {
                        kept = true
                    } else if rejects, let existing = slot.record(named: key.name) {
                        rejectedBy = existing.site
                    } else {
                        replaced = slot.setRecord(make(), named: key.name, sequence: sequence)
                    }
                    return
                }
                // The entries of the key (its plain registration and one per context).
                let existing = slot.record(named: key.name)
                let slotSequence = slot.sequence(named: key.name) ?? 0
                let entries = existing?.contextEntries(sequence: slotSequence) ?? []
                let earlier = entries.first { $0.context == context }
                if let keptUpTo, let earlier, earlier.sequence <= keptUpTo {
                    kept = true
                } else if rejects, let earlier {
                    rejectedBy = earlier.record.site
                } else {
                    let entry = ContextualRecord.Entry(context: context, record: make(), sequence: sequence)
                    let updated = ContextualRecord.replacing(entry, in: entries)
                    replaced = updated.replaced
                    slot.hasContexts = true
                    replacedWrapper = slot.setRecord(
                        RegistrationRecord.combining(updated.entries, type: type, name: key.name), named: key.name,
                        sequence: sequence)
                }
            }
            return sequence
        }
        withExtendedLifetime(replacedWrapper) {} // released here, outside the locks
        // The registration made before the run is kept; this one was never stored.
        if kept { return RegistrationHandle(container: self, key: key, sequence: nil, site: site, context: context) }
        // Earlier records (and the instances they cached) are released here, outside every lock:
        // a deinit may resolve or register.
        if let rejectedBy {
            report(.duplicateRegistration(type, name: key.name, first: rejectedBy, second: site))
            // The refused registration was never stored: its handle removes nothing.
            return RegistrationHandle(container: self, key: key, sequence: nil, site: site, context: context)
        }
        if let replaced { discardScopeCells(of: replaced, key: key, context: context) }
        // One relaxed load decides whether anything is logged, before the logger is even looked up.
        // A validation sandbox's registrations are not the app's: they are never logged.
        let level = failureSink == nil ? flags.logLevel.load(ordering: .relaxed) : DILogLevel.off.rawValue
        if level >= DILogLevel.warnings.rawValue {
            let displayName =
                ResolutionFrame.displayName(type, key.name) + (context.map { " in context \($0)" } ?? "")
            if let replaced {
                ObservationCenter.shared.logWarning(
                    "\(displayName) registered at \(site) replaces the registration at \(replaced.site)")
            } else if level >= DILogLevel.all.rawValue {
                ObservationCenter.shared.logInfo("Registered \(displayName) (\(scope)) at \(site)")
            }
        }
        return RegistrationHandle(container: self, key: key, sequence: sequence, site: site, context: context)
    }

    /// Removes the registration under `key` (of `context`; `nil`: the plain one), or only the one
    /// made by write `sequence` when given.
    package func remove(key: RegistryKey, context: RegistrationContext? = nil, onlyIf sequence: Int?) -> Bool {
        guard let slot = registry.slot(for: key.id) else { return false }
        var replacedWrapper: RegistrationRecord?
        let removed: RegistrationRecord? = slot.lock.withLock {
            // A slot that never held a context registration: the plain path.
            guard context != nil || slot.hasContexts else {
                guard slot.record(named: key.name) != nil else { return nil }
                if let sequence, slot.sequence(named: key.name) != sequence { return nil }
                return slot.setRecord(nil, named: key.name)
            }
            guard let existing = slot.record(named: key.name) else { return nil }
            let slotSequence = slot.sequence(named: key.name) ?? 0
            // A key with context registrations: the entry goes, the others stay.
            var entries = existing.contextEntries(sequence: slotSequence)
            guard let index = entries.firstIndex(where: { $0.context == context }),
                sequence == nil || entries[index].sequence == sequence
            else { return nil }
            let removed = entries.remove(at: index).record
            let remaining = RegistrationRecord.combining(entries, type: existing.type, name: key.name)
            replacedWrapper = slot.setRecord(
                remaining, named: key.name, sequence: entries.map(\.sequence).max() ?? slotSequence)
            return removed
        }
        withExtendedLifetime(replacedWrapper) {} // released here, outside the locks
        guard let removed else { return false }
        discardScopeCells(of: removed, key: key, context: context)
        return true
    }

    /// Whether this container or a parent ever held a registration under `keyID` (a slot, once
    /// made, stays). `false` proves a lookup would miss, without the cost of the miss.
    @inlinable
    package func hasSlot(forKeyID keyID: UInt) -> Bool {
        var container: Container? = self
        while let current = container {
            if current.registry.slot(for: keyID) != nil { return true }
            container = current.parent
        }
        return false
    }

    /// Resolves `key` through the record stored under it, or, when there is none, through a record
    /// of `factory` stored there first. Unlike `store`, it neither replaces nor reports a
    /// duplicate: racing callers install one record between them, and a concurrent `register`
    /// wins.
    ///
    /// The record is held from the moment it is found or stored until the resolution ends, and the
    /// key is not looked up again: a `reset()`, an `unregister` or a re-registration meanwhile
    /// cannot turn the call into a miss. The caller gets what that record gives (its instance, or
    /// a new one built from it), as a build that a reset overtakes hands its instance to its
    /// caller.
    package func resolveInstallingIfAbsent<T>(
        key: RegistryKey, scope: Scope, site: RegistrationSite, requester: Container? = nil,
        factory: @escaping @Sendable () throws -> T
    ) throws(DIError) -> T {
        let (record, lock) = registry.withSlotForWriting(id: key.id) { slot, sequence in
            if let existing = slot.lock.withLock({ slot.record(named: key.name) }) { return (existing, slot.lock) }
            // Made outside the slot lock (an allocation); the write lock keeps other writers out.
            let record = makeRecord(
                scope: scope, name: key.name, site: site, declaredDependencies: [], factory: factory)
            slot.lock.withLock { _ = slot.setRecord(record, named: key.name, sequence: sequence) }
            return (record, slot.lock)
        }
        ConcurrencyProbe.reach(.factoryDefaultHeld, subject: ResolutionFrame.displayName(T.self, key.name))
        return try resolve(record: record, key: key, lock: lock, type: T.self, requester: requester)
    }

    /// Where the registration under `key` in this container itself (not a parent) was made, if any.
    package func ownRegistrationSite(of key: RegistryKey) -> RegistrationSite? {
        guard let slot = registry.slot(for: key.id) else { return nil }
        return slot.lock.withLock { slot.record(named: key.name)?.selected?.site }
    }

    /// A replaced or removed custom-scope registration's instances leave the container's current
    /// scope instances now (a scope instance bound with `withScope` drops its one at its next
    /// resolution of the key, or when it ends).
    private func discardScopeCells(of record: RegistrationRecord, key: RegistryKey, context: RegistrationContext?) {
        // A registration with arguments keeps one record per argument value, each with its own cells.
        if let arguments = record as? ArgumentRecord, arguments.scope.customName != nil,
            let slot = registry.slot(for: key.id)
        {
            let instances = slot.lock.withLock { arguments.instanceRecords }
            for case let scoped as any ScopedRegistration in instances {
                scopes.discardCells(of: scoped, slot: UInt(bitPattern: ObjectIdentifier(scoped)))
            }
            return
        }
        guard let scoped = record as? any ScopedRegistration, record.scope.customName != nil,
            let slot = registry.slot(for: key.id)
        else { return }
        scopes.discardCells(
            of: scoped,
            slot: ContextualRecord.cellSlot(of: record, context: context) ?? UInt(bitPattern: slot.lock.word))
    }

    /// Every current registration (here, not in parents), in registration order.
    public var registrations: [RegistrationInfo] {
        registry.allEntries().map { RegistrationInfo(record: $0.record, context: $0.context) }
    }
}

/// Returned by `register`: identifies the registration and can remove it.
///
/// It is not the registered instance (registration defers creation until resolution); a member
/// of the instance asked of it fails to compile with a message saying so.
@dynamicMemberLookup
public struct RegistrationHandle: Sendable {
    private let container: Container
    let key: RegistryKey
    /// The registry write that made the registration: unique for the container's lifetime, so a
    /// later registration is never mistaken for this one. `nil` for a refused duplicate.
    private let sequence: Int?

    /// Where the registration was made.
    public let site: RegistrationSite

    /// The context the registration applies in (`register(_:in:…)`); `nil` for a plain one.
    public let context: RegistrationContext?

    init(
        container: Container, key: RegistryKey, sequence: Int?, site: RegistrationSite,
        context: RegistrationContext? = nil
    ) {
        self.container = container
        self.key = key
        self.sequence = sequence
        self.site = site
        self.context = context
    }

    /// Removes this registration if it is still the current one for its type and name (a later
    /// registration that replaced it is left alone; the handle of a registration refused by
    /// ``Container/DuplicatePolicy/reject`` removes nothing). Returns whether it removed anything.
    @discardableResult
    public func unregister() -> Bool {
        guard let sequence else { return false }
        return container.remove(key: key, context: context, onlyIf: sequence)
    }
}

/// Carries a value the caller handed over for sharing (an instance to register) into a
/// `@Sendable` closure. The caller decides the value may be shared, as with any registered
/// instance.
@usableFromInline
package struct UncheckedBox<Value>: @unchecked Sendable {
    @usableFromInline package let value: Value
    @usableFromInline package init(_ value: Value) { self.value = value }
}

extension Container {
    /// A description of one registration.
    public struct RegistrationInfo: Sendable, CustomStringConvertible {
        /// The registered type.
        public let type: Any.Type
        /// The name it was registered under, if any.
        public let name: String?
        /// Its lifetime.
        public let scope: Scope
        /// Where it was registered.
        public let site: RegistrationSite
        /// The types it declared it depends on: what its module listed in `dependencies:`, or the
        /// initializer's parameter types of an autowired registration (see ``isAutowired``), an
        /// optional parameter as its optional type (`Logger?`; ``Container/declaredDependencies(of:name:)``
        /// says which type it resolves and that it is optional).
        public let declaredDependencies: [Any.Type]
        /// Whether WeaveDI resolves the factory's inputs itself (an autowired registration,
        /// `register(_:name:scope:file:line:initializer:)`): ``declaredDependencies`` are then
        /// exactly the types its factory resolves.
        public let isAutowired: Bool
        /// The context it applies in (`register(_:in:…)`); `nil` for a plain registration.
        public let context: RegistrationContext?

        init(record: RegistrationRecord, context: RegistrationContext? = nil) {
            type = record.type
            name = record.name
            scope = record.scope
            site = record.site
            declaredDependencies = record.declaredDependencies
            isAutowired = record.isAutowired
            self.context = context
        }

        /// The type (and name) as messages spell it.
        public var displayName: String { ResolutionFrame.displayName(type, name) }

        public var description: String {
            "\(displayName) (\(scope))\(context.map { " in context \($0)" } ?? "") at \(site)"
        }
    }
}
