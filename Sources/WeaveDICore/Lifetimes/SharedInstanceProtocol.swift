// Concurrency model (ConcurrencyModel article, "States of a shared instance"; Spec/BuildWait.pml,
// Spec/TaskWait.pml): the one protocol by which a shared instance (singleton, weak, one per scope
// instance) is built once. Its two drivers — the synchronous resolution (`resolveShared`, a thread
// builds and others block on its ticket's gate) and the async one (`resolveSharedAsync`, a task
// builds and others suspend) — differ only in how they run the factory and how they wait.

/// What a resolution of a shared instance does next, decided under the storage's lock. (Not
/// generic: the drivers run unspecialized for most types, where a generic enum would cost a
/// metadata look-up per step. A built instance is handed over through an `inout` optional.)
@usableFromInline
enum SharedInstanceStep {
    /// The instance is built: return it.
    case built
    /// The storage was empty: the caller's ticket is stored there, and the caller builds.
    case build(BuildTicket)
    /// Another thread or task is building: wait for its ticket, then look again.
    case wait(BuildTicket)
    /// The storage was given up (its scope instance ended): find the current storage.
    case abandoned
}

extension InstanceStorage {
    /// One step of the protocol, under `lock`: *built* → the instance, in `value`; *abandoned* →
    /// look elsewhere; *building* → wait; *empty* → store `openTicket()` and build.
    @inlinable @inline(__always)
    func nextStep<T>(_ value: inout T?, lock: WordLock, openTicket: () -> BuildTicket) -> SharedInstanceStep {
        lock.lock()
        defer { lock.unlock() }
        value = cached(as: T.self)
        if value != nil { return .built }
        if isAbandoned { return .abandoned }
        if let building = ticket { return .wait(building) }
        let mine = openTicket()
        ticket = mine
        return .build(mine)
    }

    /// Ends the build `ticket` stands for with its instance: keeps `value` (unless the storage was
    /// abandoned meanwhile), then releases the waiters. Returns whether `value` was kept.
    @usableFromInline @discardableResult
    func finishBuild<T>(_ ticket: BuildTicket, lock: WordLock, storing value: T) -> Bool {
        var kept = false
        BuildCoordinator.shared.finish(ticket) {
            lock.lock()
            if !isAbandoned {
                store(value)
                kept = true
            }
            self.ticket = nil
            lock.unlock()
        }
        return kept
    }

    /// Ends the build `ticket` stands for after its factory failed: keeps nothing, then releases
    /// the waiters. When the build is on a cycle WeaveDI proved, the waiters get that cycle (they
    /// wait on it too); after any other failure they look again and one of them builds. (Not
    /// generic: nothing is stored, so the drivers' unspecialized copies need no metadata for it.)
    @usableFromInline
    func failBuild(_ ticket: BuildTicket, lock: WordLock, failure: any Error) {
        BuildCoordinator.shared.finish(ticket, failed: true, failureCarriesCycle: carriesCycle(failure)) {
            lock.lock()
            self.ticket = nil
            lock.unlock()
        }
    }
}

/// Whether `error` is a cycle's `DIError`, or carries one (a factory that wrapped the error of a
/// resolution it made in an error of its own), a few levels deep.
func carriesCycle(_ error: any Error, depth: Int = 0) -> Bool {
    if let error = error as? DIError {
        switch error {
        case .circularDependency: return true
        case .factoryFailed(_, _, let underlying): return depth < 4 && carriesCycle(underlying, depth: depth + 1)
        default: return false
        }
    }
    if let reported = error as? ReportedAsyncFailure { return carriesCycle(reported.error, depth: depth) }
    guard depth < 4 else { return false }
    for child in Mirror(reflecting: error).children {
        if let inner = child.value as? any Error, carriesCycle(inner, depth: depth + 1) { return true }
    }
    return false
}
