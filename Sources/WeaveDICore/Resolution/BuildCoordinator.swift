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
// - I4 (tasks): a task waits for a task's ticket suspended (no thread blocked). Its continuation
//   is resumed exactly once, by whoever removes it from the ticket under the mutex: `finish`, its
//   cancellation handler, or its deadline (`expire`).
// - I5 (tasks, Spec/TaskWait.pml): a task's wait blocks the frames it pushed itself *for sure*
//   (a definite edge) and the open frames it inherited *possibly* (only if it is a structured
//   child: nothing tells an `async let` from a `Task {}`). Successors of a task's ticket are the
//   ticket its owner waits for (definite) and the tickets of the tasks waiting inside its frame
//   (`inside`, possible). A wait that closes a cycle of definite edges ending at the waiter's own
//   frame is a proven cycle: reported at once. One that closes a cycle only through possible
//   edges or an inherited frame is a possible cycle: the task waits, with a deadline
//   (`Container.possibleCycleTimeout`); if the cycle is still there when it passes, the task gets
//   `circularDependency`. So the graph may hold possible cycles, never a definite one, and no
//   wait in a cycle lasts past the deadline.
// Lock order: `mutex`, then a slot or scope lock (inside `change`), then nothing. No factory, hook,
// log or deinit runs under `mutex`; continuations are resumed after it is released.

/// The wait-for graph: lets a thread wait for a job another thread is doing, and a task for a job
/// another task is doing, and reports a wait that would close a cycle instead of blocking.
package final class BuildCoordinator: @unchecked Sendable {
    private enum AsyncWaitOutcome {
        case suspended(possibleCycle: Bool)
        case finished(DIError?)
        case cancelled
        case cycle([BuildTicket], [String])
        case rememberedCycle([String])
    }

    /// Whether adding a wait closes a cycle, and how sure that is.
    private enum Closure {
        case proven([BuildTicket])
        case possible([BuildTicket])
    }

    /// The graph; guarded by `mutex`.
    private struct Graph {
        /// The ticket each waiting thread or task waits for.
        var waits: [ObjectIdentifier: BuildTicket] = [:]
        /// For an open frame: the tasks waiting that inherited it (their wait may block it).
        var inside: [ObjectIdentifier: [ObjectIdentifier]] = [:]
        /// The deadline of each task waiting on a possible cycle (its timer is attached once it
        /// runs), recorded in the same critical section as the wait itself.
        var deadlines: [ObjectIdentifier: Deadline] = [:]

        /// Removes a task's wait (edge, inside entries); returns its deadline's timer to cancel.
        mutating func removeTaskWait(_ wait: SuspendedWait) -> Task<Void, Never>? {
            waits[wait.waiter] = nil
            for frame in wait.inherited {
                let id = ObjectIdentifier(frame)
                inside[id]?.removeAll { $0 == wait.waiter }
                if inside[id]?.isEmpty == true { inside[id] = nil }
            }
            return deadlines.removeValue(forKey: wait.waiter)?.timer
        }

        /// Whether another task waits on a possible cycle of its own *deeper* inside one of the
        /// builds `waiter`'s wait is stuck behind: it inherited such a build's frame together with
        /// a frame opened inside it (a factory that build runs, or a task it started). Its wait
        /// may be what keeps those builds from finishing (the build runs a factory stuck on a
        /// cycle it may survive), so it is ended first. Siblings waiting in the same frame are
        /// not deeper: each ends at its own deadline.
        func deeperPossibleCycle(behind chain: [BuildTicket], than waiter: ObjectIdentifier) -> Bool {
            // The builds the wait is stuck behind: the chain, and the builds its owners wait for.
            var stuck = chain
            var current = chain.last
            while let ticket = current, let next = waits[ticket.owner], stuck.count <= waits.count + chain.count {
                if stuck.contains(where: { $0 === next }) { break }
                stuck.append(next)
                current = next
            }
            for ticket in stuck {
                guard let frame = ticket.frame, let tasks = inside[ObjectIdentifier(frame)] else { continue }
                for task in tasks where task != waiter && deadlines[task] != nil {
                    guard let theirs = waits[task],
                        let wait = theirs.suspended.first(where: { $0.waiter == task })
                    else { continue }
                    // `inherited` is innermost first: deeper when the build's frame is not first.
                    if let first = wait.inherited.first, first !== frame { return true }
                }
            }
            return false
        }

        /// Whether `waiter` (whose inherited open frames are `inherited`) waiting for `ticket` closes a
        /// cycle. First the chain of definite edges (each owner's own wait: the only kind threads
        /// have), then every edge.
        func closure(from ticket: BuildTicket, waiter: ObjectIdentifier, inherited: Set<ObjectIdentifier>)
            -> Closure?
        {
            var chain = [ticket]
            var current = ticket
            var possible: [BuildTicket]?
            while true {
                if current.owner == waiter { return .proven(chain) }
                // A build the waiter inherited: possibly a cycle; the definite chain may still prove one.
                if possible == nil, let frame = current.frame, inherited.contains(ObjectIdentifier(frame)) {
                    possible = chain
                }
                guard let next = waits[current.owner], chain.count <= waits.count else { break }
                chain.append(next)
                current = next
            }
            if let possible { return .possible(possible) }
            if inside.isEmpty { return nil }
            // Every edge, depth first, remembering how each ticket was reached.
            var cameFrom: [ObjectIdentifier: BuildTicket] = [ObjectIdentifier(ticket): ticket]
            var stack = [ticket]
            while let ticket = stack.popLast() {
                var successors: [BuildTicket] = []
                if let next = waits[ticket.owner] { successors.append(next) }
                if let frame = ticket.frame, let tasks = inside[ObjectIdentifier(frame)] {
                    successors += tasks.compactMap { waits[$0] }
                }
                for next in successors where cameFrom[ObjectIdentifier(next)] == nil {
                    cameFrom[ObjectIdentifier(next)] = ticket
                    let closes =
                        next.owner == waiter
                        || next.frame.map { inherited.contains(ObjectIdentifier($0)) } ?? false
                    if closes {
                        var path = [next]
                        var link = next
                        while let previous = cameFrom[ObjectIdentifier(link)], previous !== link {
                            path.append(previous)
                            link = previous
                        }
                        return .possible(path.reversed())
                    }
                    stack.append(next)
                }
            }
            return nil
        }

        /// The names a cycle's message gives for `chain`: each job, and between two jobs the
        /// factories the waiting task runs inside the first on its way to the second (an
        /// `async let` in `A` building `B`, which waits for `C`, reads `A -> B -> C`).
        func names(of chain: [BuildTicket]) -> [String] {
            guard let first = chain.first else { return [] }
            var names = [first.job.displayName]
            for (from, to) in zip(chain, chain.dropFirst()) {
                var via: ObjectIdentifier?
                if waits[from.owner] === to {
                    via = from.owner
                } else if let frame = from.frame, let tasks = inside[ObjectIdentifier(frame)] {
                    via = tasks.first { waits[$0] === to }
                }
                if let via, let path = to.suspended.first(where: { $0.waiter == via })?.path,
                    let start = path.lastIndex(of: from.job.displayName)
                {
                    names += path[(start + 1)...].filter { $0 != to.job.displayName }
                }
                names.append(to.job.displayName)
            }
            return names
        }

        /// The owners (tasks) along the definite chain from `ticket`: the builds a waiter waits on.
        func taskOwners(from ticket: BuildTicket) -> [ObjectIdentifier] {
            var owners: [ObjectIdentifier] = []
            var current: BuildTicket? = ticket
            while let ticket = current, ticket.isAsync, owners.count <= waits.count {
                owners.append(ticket.owner)
                current = waits[ticket.owner]
            }
            return owners
        }
    }

    /// A possible cycle's deadline.
    private struct Deadline {
        /// The sleeping task that ends the wait (`nil` until it is started).
        var timer: Task<Void, Never>?
        /// How often the deadline passed and gave way to a deeper one.
        var deferrals = 0
    }

    /// How often a deadline gives way to a deeper one before its wait fails anyway: every wait
    /// ends within this many `possibleCycleTimeout`s plus one.
    private static let maximumDeferrals = 8

    package static let shared = BuildCoordinator()

    #if DEBUG
        /// Test-only: each possible cycle whose deadline failed a wait (its signature), and when.
        static let deadlinesPassed = Locked<[(cycle: [String], at: ContinuousClock.Instant)]>([])
    #endif

    private let mutex = Locked(Graph())

    /// Blocks the calling thread (`waiter`) until `ticket` is finished.
    ///
    /// - Parameters:
    ///   - waiterPath: the waiter's own resolution path, the head of a cycle's message.
    ///   - ownBuilds: the shared-instance builds the waiter runs, outermost first: on a cycle,
    ///     the ones above the build the chain comes back to are on it too, and are marked.
    /// - Throws: ``DIError/circularDependency(path:)`` when the owner is (transitively) waiting
    ///   for the waiter (nothing is waited for then), or when the job failed because it closes a
    ///   cycle.
    package func wait(
        for ticket: BuildTicket, waiter: ObjectIdentifier, waiterPath: @autoclosure () -> [String],
        ownBuilds: @autoclosure () -> [BuildTicket] = []
    ) throws(DIError) {
        let cycle: [BuildTicket]? = mutex.withLock { graph in
            if ticket.finished { return [] }
            // I2: follow the chain of owners; reaching the waiter means the wait would close a cycle.
            var chain = [ticket]
            var thread = ticket.owner
            while thread != waiter {
                guard let next = graph.waits[thread] else {
                    graph.waits[waiter] = ticket
                    ticket.waiters.append(waiter)
                    return nil
                }
                chain.append(next)
                thread = next.owner
            }
            return chain
        }
        if let cycle {
            if cycle.isEmpty {
                // Finished meanwhile: the caller looks again, unless the job closed a cycle.
                if let failure = mutex.withLock({ _ in ticket.failure }) { throw failure }
                return
            }
            // The chain ends at a build of the waiter's; its builds above that one (in whose
            // factories it now waits) are on the cycle too.
            var marked = cycle
            let own = ownBuilds()
            if let last = cycle.last, let at = own.firstIndex(where: { $0 === last }) { marked += own[(at + 1)...] }
            throw cycleError(waiterPath() + cycle.map(\.job.displayName), on: marked)
        }
        ConcurrencyProbe.reach(.waiterWillBlock, ticket.job)
        ticket.blockUntilReleased()
        assert(mutex.withLock { $0.waits[waiter] == nil }, "the owner removes its waiters' edges before releasing them")
        ConcurrencyProbe.reach(.waiterDidWake, ticket.job)
        // Written under the mutex before the gate was released.
        if let failure = ticket.failure { throw failure }
    }

    /// Suspends the calling task (`waiter`, its graph node) until `ticket`, a task's ticket, is
    /// finished. `inherited` are the open frames the task inherited from the task that started it.
    ///
    /// - Throws: ``DIError/circularDependency(path:)`` when the wait closes a proven cycle (at
    ///   once), a possible one still there at the deadline, or when the job failed because it
    ///   closes a cycle; `CancellationError` when the waiting task is cancelled, before or while it
    ///   waits (its edge is removed; the job goes on).
    func waitAsync(for ticket: BuildTicket, waiter: ObjectIdentifier, path: [AsyncFrame], taskID: UInt) async throws {
        let inherited = path.filter { !$0.isOwn(by: taskID) }
        let waiterPath = path.reversed().map(\.frame.displayName)
        let priority = Task.currentPriority
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                // Cancellation is checked under the mutex: the handler below takes the mutex
                // after the task is marked cancelled, so either it finds the continuation
                // registered here, or this sees the task cancelled; never neither.
                let outcome: AsyncWaitOutcome = mutex.withLock { graph in
                    if ticket.finished { return .finished(ticket.failure) }
                    if Task.isCancelled { return .cancelled }
                    let ids = Set(inherited.map(ObjectIdentifier.init))
                    let closure = graph.closure(from: ticket, waiter: waiter, inherited: ids)
                    if case .proven(let chain) = closure { return .cycle(chain, graph.names(of: chain)) }
                    // A possible cycle that already made a build on it fail, along the same path:
                    // this is that cycle again (a retry of the build), so it is reported at once.
                    if case .possible(let chain) = closure {
                        let cycle = BuildCoordinator.cycleSignature(waiterPath + graph.names(of: chain))
                        if chain.contains(where: { $0.asyncRecord?.failedOnPossibleCycle == cycle })
                            || path.contains(where: { $0.record.failedOnPossibleCycle == cycle })
                        {
                            // Still only a possible cycle: the builds on it are marked as such (their
                            // waiters try again, and meet it at once if they form it too).
                            for link in chain where link.possibleCycle == nil { link.possibleCycle = cycle }
                            return .rememberedCycle(waiterPath + graph.names(of: chain))
                        }
                    }
                    graph.waits[waiter] = ticket
                    for frame in inherited { graph.inside[ObjectIdentifier(frame), default: []].append(waiter) }
                    ticket.waiters.append(waiter)
                    ticket.suspended.append(
                        SuspendedWait(
                            waiter: waiter, continuation: continuation, inherited: inherited, path: waiterPath))
                    // The builds this task now waits on run at least at its priority (each owner
                    // is alive: its ticket is open).
                    for owner in graph.taskOwners(from: ticket) {
                        AsyncResolutionPath.escalate(taskAt: UInt(bitPattern: owner), to: priority)
                    }
                    if case .possible = closure {
                        graph.deadlines[waiter] = Deadline()
                        return .suspended(possibleCycle: true)
                    }
                    return .suspended(possibleCycle: false)
                }
                switch outcome {
                case .suspended(let possibleCycle):
                    ConcurrencyProbe.reach(.waiterWillBlock, ticket.job)
                    if possibleCycle { armDeadline(for: waiter, on: ticket) }
                case .finished(let failure):
                    if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .cycle(let chain, let names):
                    continuation.resume(throwing: cycleError(waiterPath + names, on: chain))
                case .rememberedCycle(let path):
                    continuation.resume(throwing: DIError.circularDependency(path: path))
                }
            }
        } onCancel: {
            let removed: (UnsafeContinuation<Void, any Error>, Task<Void, Never>?)? = mutex.withLock { graph in
                guard let index = ticket.suspended.firstIndex(where: { $0.waiter == waiter }) else { return nil }
                let entry = ticket.suspended.remove(at: index)
                ticket.waiters.removeAll { $0 == waiter }
                return (entry.continuation, graph.removeTaskWait(entry))
            }
            removed?.1?.cancel()
            removed?.0.resume(throwing: CancellationError())
        }
        ConcurrencyProbe.reach(.waiterDidWake, ticket.job)
    }

    /// Starts the timer of a task's deadline (recorded when it started waiting, or again when it
    /// gave way to a deeper one).
    private func armDeadline(for waiter: ObjectIdentifier, on ticket: BuildTicket) {
        let nanoseconds = Container.possibleCycleTimeoutNanoseconds
        let timer = Task.detached(priority: .utility) {
            do { try await Task.sleep(nanoseconds: nanoseconds) } catch { return }
            BuildCoordinator.shared.expire(waiter, on: ticket)
        }
        let attached = mutex.withLock { graph in
            guard graph.waits[waiter] === ticket, graph.deadlines[waiter] != nil else { return false }
            graph.deadlines[waiter]?.timer = timer
            return true
        }
        if !attached { timer.cancel() }
    }

    /// A possible cycle's deadline passed: if `waiter` still waits for `ticket` and the wait still
    /// closes a cycle, it stops waiting with ``DIError/circularDependency(path:)``.
    ///
    /// A task waiting on a possible cycle of its own deeper inside a build this one is stuck
    /// behind goes first: this deadline starts again (at most ``maximumDeferrals`` times). That
    /// task's cycle may be what keeps the build from finishing; once it is reported, the build
    /// may finish and this task get its instance.
    private func expire(_ waiter: ObjectIdentifier, on ticket: BuildTicket) {
        var rearm = false
        let resumed: (UnsafeContinuation<Void, any Error>, DIError)? = mutex.withLock { graph in
            guard graph.waits[waiter] === ticket, let deadline = graph.deadlines[waiter],
                let index = ticket.suspended.firstIndex(where: { $0.waiter == waiter })
            else { return nil }
            let entry = ticket.suspended[index]
            let ids = Set(entry.inherited.map(ObjectIdentifier.init))
            let chain: [BuildTicket]
            switch graph.closure(from: ticket, waiter: waiter, inherited: ids) {
            case .proven(let found)?, .possible(let found)?: chain = found
            case nil:
                graph.deadlines[waiter] = nil
                return nil
            }
            if deadline.deferrals < BuildCoordinator.maximumDeferrals,
                graph.deeperPossibleCycle(behind: chain, than: waiter)
            {
                graph.deadlines[waiter] = Deadline(timer: nil, deferrals: deadline.deferrals + 1)
                rearm = true
                return nil
            }
            ticket.suspended.remove(at: index)
            ticket.waiters.removeAll { $0 == waiter }
            _ = graph.removeTaskWait(entry)
            let path = entry.path + graph.names(of: chain)
            let cycle = BuildCoordinator.cycleSignature(path)
            #if DEBUG
                BuildCoordinator.deadlinesPassed.withLock { $0.append((cycle, ContinuousClock.now)) }
            #endif
            for link in chain where link.possibleCycle == nil { link.possibleCycle = cycle }
            return (entry.continuation, DIError.circularDependency(path: path))
        }
        if let (continuation, error) = resumed { continuation.resume(throwing: error) }
        if rearm { armDeadline(for: waiter, on: ticket) }
    }

    /// Finishes `ticket` (on its owner's thread, or in its owner task): runs `change` (publish or
    /// discard the result) under the graph's mutex, removes every edge to the ticket, then
    /// releases its waiters (opens the gate, resumes the suspended tasks). When the job `failed` on
    /// a proven cycle, its waiters get that error; otherwise they look again.
    package func finish(
        _ ticket: BuildTicket, failed: Bool = false, failureCarriesCycle: Bool = false, _ change: () -> Void
    ) {
        ConcurrencyProbe.reach(.ownerWillFinish, ticket.job)
        let (suspended, deadlines, handed) = mutex.withLock { graph in
            change()
            ticket.finished = true
            // A build on a proven cycle fails because of it, whatever its factory made of that
            // error (rethrew it, wrapped it, or threw its own).
            if failed { ticket.failure = ticket.provenCycle ?? ticket.frame?.provenCycle }
            // A registration remembers the possible cycle its build failed on, until one succeeds.
            // A registration remembers the possible cycle its build failed on (the factory threw
            // that cycle's error, maybe wrapped) until a build of it ends otherwise.
            if let record = ticket.asyncRecord {
                record.failedOnPossibleCycle = failed && failureCarriesCycle ? ticket.possibleCycle : nil
            }
            // Nobody waits: the usual case, kept short (every build of a shared instance ends here).
            if ticket.waiters.isEmpty { return ([SuspendedWait](), [Task<Void, Never>](), ticket.failure) }
            var deadlines: [Task<Void, Never>] = []
            for waiter in ticket.waiters {
                assert(graph.waits[waiter] === ticket, "a waiter's edge points at the ticket it waits for")
                graph.waits[waiter] = nil
            }
            for wait in ticket.suspended {
                if let deadline = graph.removeTaskWait(wait) { deadlines.append(deadline) }
            }
            ticket.waiters = []
            defer { ticket.suspended = [] }
            return (ticket.suspended, deadlines, ticket.failure)
        }
        ticket.releaseGate()
        for deadline in deadlines { deadline.cancel() }
        for entry in suspended {
            if let handed { entry.continuation.resume(throwing: handed) } else { entry.continuation.resume() }
        }
    }

    /// The cycle a cycle path closes, whoever walked it: the names from the first occurrence of the
    /// closing one, rotated to start at the least (so `A -> B -> A` and `B -> A -> B` are one cycle).
    static func cycleSignature(_ path: [String]) -> [String] {
        guard let last = path.last, let start = path.firstIndex(of: last), start < path.count - 1 else { return path }
        let loop = Array(path[start..<(path.count - 1)])
        guard let least = loop.indices.min(by: { loop[$0] < loop[$1] }) else { return loop }
        return Array(loop[least...] + loop[..<least])
    }

    /// The error for a proven cycle closed by a wait through `chain`, which marks each build on
    /// it: should they fail, they fail because of that cycle.
    private func cycleError(_ path: [String], on chain: [BuildTicket]) -> DIError {
        let error = DIError.circularDependency(path: path)
        mutex.withLock { _ in for link in chain { link.provenCycle = link.provenCycle ?? error } }
        return error
    }

    /// A task's own factories, `frames` (innermost first), form the proven cycle `error`
    /// (`Container.checkOwnPath`): marks each, as ``cycleError(_:on:)`` marks the builds a wait
    /// proved a cycle through, so the builds they run hand the error to their waiters if they fail.
    func markProvenCycle(_ error: DIError, on frames: [AsyncFrame]) {
        mutex.withLock { _ in for frame in frames { frame.provenCycle = frame.provenCycle ?? error } }
    }

    /// A thread's own builds, `tickets`, are on the proven cycle `error` it found on its own stack
    /// (`Container.ownCycle`): marks each, as ``cycleError(_:on:)`` marks the builds a wait
    /// proved a cycle through, so their waiters get the error if they fail.
    func markProvenCycle(_ error: DIError, on tickets: [BuildTicket]) {
        mutex.withLock { _ in for ticket in tickets { ticket.provenCycle = ticket.provenCycle ?? error } }
    }

    /// Under the mutex: the ticket to wait on until the transient frame `frame` closes (`nil`:
    /// closed already).
    func ticketForClose(of frame: AsyncFrame, job: BuildTicket.Job) -> BuildTicket? {
        mutex.withLock { _ in frame.ticketForClose(job: job) }
    }

    /// `frame`'s factory returned: the tasks waiting for it to close look again.
    func frameClosed(_ frame: AsyncFrame) {
        guard let ticket = mutex.withLock({ _ in frame.closeTicket }) else { return }
        finish(ticket) { frame.closeTicket = nil }
    }

    #if DEBUG
        /// Test-only: the waits pending now, one line each (the job waited for, whether its owner
        /// waits too, and the waiter's deadline), so a stuck stress round says what it waits for.
        func pendingWaits() -> [String] {
            mutex.withLock { graph in
                graph.waits.map { waiter, ticket in
                    let owner = graph.waits[ticket.owner].map { "waits for \($0.job.displayName)" } ?? "runs"
                    let deadline =
                        graph.deadlines[waiter].map { "deadline, \($0.deferrals) deferrals" } ?? "no deadline"
                    return "\(waiter) -> \(ticket.job.displayName) (owner \(owner); \(deadline))"
                }
            }
        }
    #endif

    /// How many waiters (threads and tasks) wait for the job named `displayName` now; for tests
    /// that must let waiters arrive before they act.
    func waiterCount(forJob displayName: String) -> Int {
        mutex.withLock { graph in graph.waits.values.filter { $0.job.displayName == displayName }.count }
    }
}
