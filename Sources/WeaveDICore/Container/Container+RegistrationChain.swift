extension Container {
    /// This container and its parents, nearest first.
    package var chain: [Container] {
        var result: [Container] = []
        var next: Container? = self
        while let current = next {
            result.append(current)
            next = current.parent
        }
        return result
    }

    /// Every registration resolving here can reach: this container's, then each parent's that
    /// this container (or a nearer parent) does not override. Outermost parent first, each
    /// container's in registration order.
    package func chainedRegistrations() -> [ChainedRegistration] {
        var seen = Set<RegistryKey>()
        var perContainer: [[ChainedRegistration]] = []
        for container in chain {
            var own: [ChainedRegistration] = []
            // A key whose context registrations do not apply and which has no plain one here is
            // resolved by the parent: it hides nothing.
            for (slot, record) in container.registry.allRecords() where record.selected != nil {
                let key = RegistryKey(rawID: slot.id, name: record.name)
                if seen.insert(key).inserted {
                    own.append(ChainedRegistration(key: key, record: record, slot: slot, owner: container))
                }
            }
            perContainer.append(own)
        }
        return perContainer.reversed().flatMap { $0 }
    }
}

extension Container {
    /// This container's own registrations (not its parents'), in registration order.
    package func ownRegistrations() -> [ChainedRegistration] {
        registry.allRecords().map { slot, record in
            ChainedRegistration(
                key: RegistryKey(rawID: slot.id, name: record.name), record: record, slot: slot, owner: self)
        }
    }

    /// Adds a copy of each of `registrations` with nothing built yet (a validation sandbox's
    /// registrations). The keys are unique and this container starts empty: nothing is replaced.
    package func addFreshCopies(of registrations: [ChainedRegistration]) {
        for registration in registrations {
            registry.withSlotForWriting(id: registration.key.id) { slot, sequence in
                let copy = registration.record.freshCopy()
                _ = slot.lock.withLock {
                    if copy.scopeTag == .contextual { slot.hasContexts = true }
                    return slot.setRecord(copy, named: registration.key.name, sequence: sequence)
                }
            }
        }
    }

    /// Each registration here (not in parents) with the resolutions it has served.
    package func resolutionCounts() -> [(key: RegistryKey, record: RegistrationRecord, resolutions: Int)] {
        var counts: [(key: RegistryKey, record: RegistrationRecord, resolutions: Int)] = []
        registry.forEachSlot { slot in
            let counted = slot.lock.withLock { slot.allRecords.map { ($0, slot.resolutions(of: $0)) } }
            for (record, count) in counted {
                counts.append((RegistryKey(rawID: slot.id, name: record.name), record, count))
            }
        }
        return counts
    }

    /// Sets every registration's resolution count back to zero.
    package func resetResolutionCounts() {
        registry.forEachSlot { slot in
            slot.lock.withLock { slot.resetResolutionCounts() }
        }
    }
}

extension ChainedRegistration {
    /// The registration that applies now: the record, or for a key with context registrations
    /// the one of the active context (else its plain one).
    package var applying: RegistrationRecord { record.selected ?? record }

    /// Resolves this registration in its owner, counted like any resolution (Factory-key
    /// registrations included, which have no type to resolve by), as `requester` (a child of the
    /// owner, or the owner) resolving it would: an autowired factory of a parent resolves its
    /// parameters through the child that asked, as in the app.
    package func resolve(asking requester: Container? = nil) throws(DIError) -> Any {
        try owner.ensureAutoRegistered()
        slot.lock.withLock { _ = slot.findCountingResolution(named: record.name) }
        guard let requester, requester !== owner else {
            return try record.resolveErased(in: owner, key: key, slot: slot)
        }
        let delegation = ThreadStack.current.delegate(to: requester)
        defer { delegation.end() }
        return try record.resolveErased(in: owner, key: key, slot: slot, requester: requester)
    }

    /// Resolves this registration in its owner with `await` (an async factory's too), as
    /// `requester` resolving it would (see ``resolve(asking:)``).
    package func resolveAsync(asking requester: Container? = nil) async throws -> Any {
        try owner.ensureAutoRegistered()
        let requester = requester === owner ? nil : requester
        func open<T>(_: T.Type) async throws -> Any {
            let value: T = try await owner.resolveAsyncCore(key: key, requester: requester)
            return value
        }
        return try await open(record.type)
    }
}
/// One registration as diagnostics walk them: the record, where it is stored, and the container
/// (this one or a parent) that owns it. `@unchecked Sendable`: the slot is a pointer into the
/// owner's registry, valid while `owner` (kept here) is alive, and used only under its lock.
package struct ChainedRegistration: @unchecked Sendable {
    package let key: RegistryKey
    package let record: RegistrationRecord
    let slot: TypeSlot
    package let owner: Container
}
