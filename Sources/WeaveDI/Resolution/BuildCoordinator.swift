// Concurrency model (Reliability/ConcurrencyModel article; checked by Spec/BuildWait.pml): the
// one wait-for graph of the process.
//
// Every blocking wait WeaveDI makes goes through `wait(for:waiter:waiterPath:)`: for a shared
// instance another thread is building (`Container.resolveShared`), an `InjectedValues` default
// another thread is computing (`InjectedDefaults.slowBox`), and the auto-registration run
// (`Container.runAutoRegistration`). Each is a `BuildTicket` with one owner thread.
//
// State (guarded by `mutex`): `waits[t]` is the ticket thread `t` is blocked on. Invariants:
// - I1: `waits[t] = k` only while `k` is open (`!k.finished`). The owner removes its waiters'
//   edges in `finish`, under the mutex, in the same critical section that marks the ticket
//   finished (and, through `change`, empties the cell the ticket built). A waiter that has not
//   woken up yet therefore never leaves a stale edge behind (the false-cycle fault).
// - I2: the edges never form a cycle: an edge is added only after walking the chain
//   `k.owner → waits[k.owner].owner → …` under the mutex and finding that it does not lead back
//   to the waiter. A chain that does is a real cycle; it is reported as
//   `DIError.circularDependency` with the path, and nothing waits.
// - I3: a thread blocks only on the gate of an open ticket it has an edge to, and a gate is
//   released only after its ticket is finished; so a thread waits only for an owner that is
//   running or itself waiting along an acyclic chain: no deadlock within WeaveDI's own waits.
// Lock order: `mutex`, then a slot or scope lock (inside `change`), then nothing. No factory, hook,
// log or deinit runs under `mutex`.

/// The wait-for graph: lets a thread wait for a job another thread is doing, and reports a wait
/// that would close a cycle instead of blocking.
final class BuildCoordinator: @unchecked Sendable {
    static let shared = BuildCoordinator()

    private let mutex = Locked<[ObjectIdentifier: BuildTicket]>([:])

    /// Blocks the calling thread (`waiter`) until `ticket` is finished.
    ///
    /// - Parameter waiterPath: the waiter's own resolution path, the head of a cycle's message.
    /// - Throws: ``DIError/circularDependency(path:)`` when the owner is (transitively) waiting
    ///   for the waiter; nothing is waited for then.
    func wait(for ticket: BuildTicket, waiter: ObjectIdentifier, waiterPath: @autoclosure () -> [String]) throws(DIError) {
        let cycle: [BuildTicket]? = mutex.withLock { waits in
            if ticket.finished { return [] }
            // I2: follow the chain of owners; reaching the waiter means the wait would close a cycle.
            var chain = [ticket]
            var thread = ticket.owner
            while thread != waiter {
                guard let next = waits[thread] else {
                    waits[waiter] = ticket
                    ticket.waiters.append(waiter)
                    return nil
                }
                chain.append(next)
                thread = next.owner
            }
            return chain
        }
        if let cycle {
            if cycle.isEmpty { return }  // finished meanwhile: the caller looks again
            throw DIError.circularDependency(path: waiterPath() + cycle.map(\.job.displayName))
        }
        ConcurrencyProbe.reach(.waiterWillBlock, ticket.job)
        ticket.blockUntilReleased()
        assert(mutex.withLock { $0[waiter] == nil }, "the owner removes its waiters' edges before releasing them")
        ConcurrencyProbe.reach(.waiterDidWake, ticket.job)
    }

    /// Finishes `ticket` (on its owner's thread): runs `change` (publish or discard the result)
    /// under the graph's mutex, removes every edge to the ticket, then releases its waiters.
    func finish(_ ticket: BuildTicket, _ change: () -> Void) {
        ConcurrencyProbe.reach(.ownerWillFinish, ticket.job)
        mutex.withLock { waits in
            change()
            ticket.finished = true
            for waiter in ticket.waiters {
                assert(waits[waiter] === ticket, "a waiter's edge points at the ticket it waits for")
                waits[waiter] = nil
            }
            ticket.waiters = []
        }
        ticket.releaseGate()
    }
}
