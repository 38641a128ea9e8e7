// Concurrency model (ConcurrencyModel article, "States of a shared instance"; Spec/BuildWait.pml,
// Spec/TaskWait.pml): the one protocol by which a shared instance (singleton, weak, one per scope
// instance) is built once. Its two drivers — the synchronous resolution (`resolveShared`, a thread
// builds and others block on its ticket's gate) and the async one (`resolveSharedAsync`, a task
// builds and others suspend) — differ only in how they run the factory and how they wait.

/// What a resolution of a shared instance does next, decided under the storage's lock.
@usableFromInline
enum SharedInstanceStep<Value> {
    /// The instance is built: return it.
    case built(Value)
    /// The storage was empty: the caller's ticket is stored there, and the caller builds.
    case build(BuildTicket)
    /// Another thread or task is building: wait for its ticket, then look again.
    case wait(BuildTicket)
    /// The storage was given up (its scope instance ended): find the current storage.
    case abandoned
}

extension InstanceStorage {
    /// One step of the protocol, under `lock`: *built* → return; *abandoned* → look elsewhere;
    /// *building* → wait; *empty* → store `openTicket()` and build.
    @inlinable @inline(__always)
    func nextStep<T>(as _: T.Type, lock: WordLock, openTicket: () -> BuildTicket) -> SharedInstanceStep<T> {
        lock.lock()
        defer { lock.unlock() }
        if let value = cached(as: T.self) { return .built(value) }
        if isAbandoned { return .abandoned }
        if let building = ticket { return .wait(building) }
        let mine = openTicket()
        ticket = mine
        return .build(mine)
    }

    /// Ends the build `ticket` stands for: keeps `value` (unless the storage was abandoned meanwhile)
    /// or, when the factory failed, nothing; then releases the waiters. A failure that is a cycle
    /// goes to the waiters too (they wait on that cycle); after any other failure they look again
    /// and one of them builds.
    @usableFromInline
    func finishBuild<T>(_ ticket: BuildTicket, lock: WordLock, value: T?, failure: (any Error)? = nil) {
        BuildCoordinator.shared.finish(ticket, failure: Self.cycle(in: failure)) {
            lock.lock()
            if let value, !isAbandoned { store(value) }
            self.ticket = nil
            lock.unlock()
        }
    }

    /// The cycle error `failure` is or wraps, if any.
    static func cycle(in failure: (any Error)?) -> DIError? {
        let error = (failure as? DIError) ?? (failure as? ReportedAsyncFailure)?.error
        if case .circularDependency? = error { return error }
        return nil
    }
}
