#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Concurrency model (Reliability/ConcurrencyModel article, Spec/BuildWait.pml): a ticket is one
// job in progress that others may wait for — building a shared instance, computing an
// `InjectedValues` default, or running `AutoRegistering.registerAllServices()`. Its owner is the
// one thread (synchronous factory) or task (async factory; its address) doing the job.
//
// States: open (created by its owner) → finished (`BuildCoordinator.finish`). Never reopened.
// Invariants:
// - a thread's ticket has a gate, held by the owner exactly while the ticket is open, so a thread
//   that blocks on the gate waits for the owner and lends it its priority (no priority inversion:
//   the kernel knows who the waiter waits for, which a condition variable cannot tell it);
// - a task's ticket has no gate (a task may resume on another thread, and must not block one):
//   its waiters are tasks suspended on continuations, resumed by `finish` or by their own
//   cancellation, exactly once either way (both remove the continuation under the mutex);
// - `finished`, `waiters` and `suspended` are guarded by the coordinator's mutex; an edge
//   "waiter → ticket" in the wait-for graph exists only while the ticket is open and the waiter
//   waits. Only tasks wait for a task's ticket: a synchronous resolution of an async
//   registration fails at once (`DIError.asyncResolutionRequired`).

/// One job in progress that other threads may have to wait for.
@usableFromInline
package final class BuildTicket: @unchecked Sendable {
    /// What is being done, as a cycle message names it.
    package enum Job {
        case registration(RegistrationRecord)
        case injectedDefault(Any.Type)
        case autoRegistration

        var displayName: String {
            switch self {
            case .registration(let record): return record.displayName
            case .injectedDefault(let key): return "InjectedValues default of \(TypeNames.qualified(key))"
            case .autoRegistration: return "AutoRegistering.registerAllServices()"
            }
        }
    }

    let job: Job
    /// The thread (a ``ResolutionStack/threadID``) or task (its address) doing the job.
    package let owner: ObjectIdentifier
    /// Set once, by ``BuildCoordinator/finish(_:_:)``; guarded by the coordinator's mutex.
    var finished = false
    /// Threads or tasks whose wait-for edge points here; guarded by the coordinator's mutex.
    var waiters: [ObjectIdentifier] = []
    /// The suspended tasks waiting for a task's ticket; guarded by the coordinator's mutex.
    var suspended: [SuspendedWait] = []
    /// Set by ``BuildCoordinator/finish(_:failed:failureCarriesCycle:_:)`` when the job failed on a proven cycle
    /// (``provenCycle``): its waiters get the error instead of trying again. Guarded by the
    /// coordinator's mutex (and visible to a thread past the gate).
    var failure: DIError?
    /// The first cycle WeaveDI proved through this job (a wait whose chain runs through it was
    /// refused at once); guarded by the coordinator's mutex. Should the job fail, its waiters get
    /// it: they wait on that cycle too. (A possible cycle's deadline marks nothing: the job may
    /// have failed only because a task waited too long, and its waiters try again.)
    var provenCycle: DIError?
    /// The possible cycle (``BuildCoordinator/cycleSignature(_:)``) whose deadline passed on a
    /// wait through this job; guarded by the coordinator's mutex. Should the job fail, its
    /// registration remembers it.
    var possibleCycle: [String]?

    /// The async registration the job builds, if it is one.
    var asyncRecord: AsyncRecord? {
        guard case .registration(let record) = job, record.isAsync else { return nil }
        return unsafeDowncast(record, to: AsyncRecord.self)
    }
    /// A task's ticket: the async factory run (frame) doing the job, which tasks started inside it
    /// inherit. `nil` for a thread's ticket.
    let frame: AsyncFrame?
    /// A thread's ticket's gate; `nil` for a task's ticket.
    private let gate: BuildGate?

    /// Opens a ticket owned by the calling thread (`owner` must be its thread id): the gate is
    /// taken here, on the owner's thread, before anyone can see the ticket.
    package init(job: Job, owner: ObjectIdentifier) {
        self.job = job
        self.owner = owner
        let gate = BuildGate()
        gate.lock()
        self.gate = gate
        frame = nil
    }

    /// Opens a ticket owned by a task (`owner` is its graph node, from its address) for the job
    /// `frame` runs: waiters suspend.
    init(job: Job, taskNode owner: ObjectIdentifier, frame: AsyncFrame) {
        self.job = job
        self.owner = owner
        self.frame = frame
        gate = nil
    }

    deinit { gate?.deallocate() }

    /// Whether a task owns the ticket (waiters suspend instead of blocking).
    var isAsync: Bool { gate == nil }

    /// Blocks until the owner releases the gate (returns at once if it already has).
    ///
    /// Only a thread's ticket is ever blocked on: a task's ticket is stored only in an async
    /// registration's storage, which the synchronous path never waits for.
    func blockUntilReleased() {
        assert(gate != nil, "a thread never blocks on a task's ticket")
        gate?.lock()
        gate?.unlock()
    }

    /// Called by the owner, on its own thread, once the ticket is finished.
    func releaseGate() { gate?.unlock() }
}

/// A task suspended until a task's ticket is finished.
struct SuspendedWait {
    let waiter: ObjectIdentifier
    let continuation: UnsafeContinuation<Void, any Error>
    /// The open frames the waiter inherited (its wait may block them: see `BuildCoordinator`).
    let inherited: [AsyncFrame]
    /// The waiter's resolution path, the head of a cycle's message.
    let path: [String]
}

/// A mutual-exclusion lock whose waiters donate their priority to its holder.
///
/// `os_unfair_lock` on Apple platforms; elsewhere a `pthread_mutex_t` with the priority-inheritance
/// protocol where the system supports it (a plain mutex otherwise). Locked and unlocked by the same
/// thread, as both require.
struct BuildGate {
    #if canImport(Darwin)
        private let word: UnsafeMutablePointer<os_unfair_lock>

        init() {
            word = .allocate(capacity: 1)
            word.initialize(to: os_unfair_lock())
        }

        func lock() { os_unfair_lock_lock(word) }
        func unlock() { os_unfair_lock_unlock(word) }
        func deallocate() { word.deallocate() }
    #else
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init() {
            mutex = .allocate(capacity: 1)
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            if BuildGate.priorityInheritance {
                pthread_mutexattr_setprotocol(&attributes, CInt(PTHREAD_PRIO_INHERIT))
            }
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        }

        func lock() {
            let status = pthread_mutex_lock(mutex)
            assert(status == 0, "a build gate could not be locked (\(status))")
        }

        func unlock() {
            let status = pthread_mutex_unlock(mutex)
            assert(status == 0, "a build gate could not be unlocked (\(status))")
        }

        func deallocate() {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Whether this system takes and releases a priority-inheriting mutex (checked once: a
        /// kernel without PI futexes refuses them, and the gate then uses a plain mutex).
        private static let priorityInheritance: Bool = {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            defer { pthread_mutexattr_destroy(&attributes) }
            guard pthread_mutexattr_setprotocol(&attributes, CInt(PTHREAD_PRIO_INHERIT)) == 0 else { return false }
            // A mutex must not move while in use: a heap cell, not a local variable.
            let probe = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            defer { probe.deallocate() }
            guard pthread_mutex_init(probe, &attributes) == 0 else { return false }
            defer { pthread_mutex_destroy(probe) }
            guard pthread_mutex_lock(probe) == 0 else { return false }
            return pthread_mutex_unlock(probe) == 0
        }()
    #endif
}
