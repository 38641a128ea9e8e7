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
// - I4 (tasks): a task waits only for a task's ticket, suspended (no thread blocked). Its
//   continuation is resumed exactly once: by `finish` (which removes it under the mutex) or by its
//   cancellation handler (which removes it, and its edge, under the mutex). A task running in a
//   build its parent task owns counts as that parent along a chain (`ownsForWaiter`): the
//   parent awaits it, so a chain back to the parent is a cycle.
// Lock order: `mutex`, then a slot or scope lock (inside `change`), then nothing. No factory, hook,
// log or deinit runs under `mutex`; continuations are resumed after it is released.

/// The wait-for graph: lets a thread wait for a job another thread is doing, and reports a wait
/// that would close a cycle instead of blocking.
package final class BuildCoordinator: @unchecked Sendable {
    private enum AsyncWaitOutcome {
        case suspended, finished, cancelled
        case cycle([BuildTicket])
    }

    package static let shared = BuildCoordinator()

    private let mutex = Locked<[ObjectIdentifier: BuildTicket]>([:])

    /// Blocks the calling thread (`waiter`) until `ticket` is finished.
    ///
    /// - Parameter waiterPath: the waiter's own resolution path, the head of a cycle's message.
    /// - Throws: ``DIError/circularDependency(path:)`` when the owner is (transitively) waiting
    ///   for the waiter; nothing is waited for then.
    package func wait(for ticket: BuildTicket, waiter: ObjectIdentifier, waiterPath: @autoclosure () -> [String])
        throws(DIError)
    {
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
            if cycle.isEmpty { return } // finished meanwhile: the caller looks again
            throw DIError.circularDependency(path: waiterPath() + cycle.map(\.job.displayName))
        }
        ConcurrencyProbe.reach(.waiterWillBlock, ticket.job)
        ticket.blockUntilReleased()
        assert(mutex.withLock { $0[waiter] == nil }, "the owner removes its waiters' edges before releasing them")
        ConcurrencyProbe.reach(.waiterDidWake, ticket.job)
    }

    /// Suspends the calling task (`waiter`, its graph node) until `ticket`, a task's ticket,
    /// is finished. The task's own wait-for node is `waiter`; `ownsForWaiter` says whether a node
    /// found along the chain of owners stands for the waiter too: a task running inside a build
    /// its parent task owns (an `async let` in a factory) is waited for by that parent, so a
    /// chain reaching the parent closes a cycle. It is asked under the mutex.
    ///
    /// - Throws: ``DIError/circularDependency(path:)`` when the owner is (transitively) waiting
    ///   for the waiter (nothing is waited for then); `CancellationError` when the waiting task
    ///   is cancelled, before or while it waits (its edge is removed; the build goes on).
    func waitAsync(
        for ticket: BuildTicket, waiter: ObjectIdentifier, ownsForWaiter: (ObjectIdentifier) -> Bool,
        waiterPath: () -> [String]
    ) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                // Cancellation is checked under the mutex: the handler below takes the mutex
                // after the task is marked cancelled, so either it finds the continuation
                // registered here, or this sees the task cancelled; never neither.
                let outcome: AsyncWaitOutcome = mutex.withLock { waits in
                    if ticket.finished { return .finished }
                    if Task.isCancelled { return .cancelled }
                    var chain = [ticket]
                    var node = ticket.owner
                    while node != waiter && !ownsForWaiter(node) {
                        guard let next = waits[node] else {
                            waits[waiter] = ticket
                            ticket.waiters.append(waiter)
                            ticket.suspended.append((waiter, continuation))
                            return .suspended
                        }
                        chain.append(next)
                        node = next.owner
                    }
                    return .cycle(chain)
                }
                switch outcome {
                case .suspended: ConcurrencyProbe.reach(.waiterWillBlock, ticket.job)
                case .finished: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .cycle(let chain):
                    continuation.resume(
                        throwing: DIError.circularDependency(path: waiterPath() + chain.map(\.job.displayName)))
                }
            }
        } onCancel: {
            let continuation: UnsafeContinuation<Void, any Error>? = mutex.withLock { waits in
                guard let index = ticket.suspended.firstIndex(where: { $0.waiter == waiter }) else { return nil }
                let entry = ticket.suspended.remove(at: index)
                ticket.waiters.removeAll { $0 == waiter }
                waits[waiter] = nil
                return entry.continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
        ConcurrencyProbe.reach(.waiterDidWake, ticket.job)
    }

    /// Finishes `ticket` (on its owner's thread, or in its owner task): runs `change` (publish or
    /// discard the result) under the graph's mutex, removes every edge to the ticket, then
    /// releases its waiters (opens the gate, resumes the suspended tasks).
    package func finish(_ ticket: BuildTicket, _ change: () -> Void) {
        ConcurrencyProbe.reach(.ownerWillFinish, ticket.job)
        let suspended = mutex.withLock { waits in
            change()
            ticket.finished = true
            for waiter in ticket.waiters {
                assert(waits[waiter] === ticket, "a waiter's edge points at the ticket it waits for")
                waits[waiter] = nil
            }
            ticket.waiters = []
            defer { ticket.suspended = [] }
            return ticket.suspended
        }
        ticket.releaseGate()
        for entry in suspended { entry.continuation.resume() }
    }

    /// How many waiters (threads and tasks) wait for the job named `displayName` now; for tests
    /// that must let waiters arrive before they act.
    func waiterCount(forJob displayName: String) -> Int {
        mutex.withLock { waits in waits.values.filter { $0.job.displayName == displayName }.count }
    }
}
