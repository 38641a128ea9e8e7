/// Lets threads wait for a shared instance another thread is building, without deadlocking.
///
/// A thread that finds a singleton (or weak, or scoped) instance being built by another thread
/// waits here. Before waiting it follows the chain "that builder waits for a thread, which waits
/// for…"; if the chain comes back to itself, the threads are building each other's dependencies,
/// which is a cycle: it is reported instead of waited on, so two threads resolving `A -> B` and
/// `B -> A` at the same time get an error, not a hang.
@usableFromInline
final class BuildCoordinator: @unchecked Sendable {
    @usableFromInline static let shared = BuildCoordinator()

    private let mutex = ConditionMutex()
    /// For each waiting thread: the thread it waits for and what it waits for (guarded by `mutex`).
    /// Registrations, not names, are kept: names are spelled out only when a cycle is reported.
    private var waits: [ObjectIdentifier: (builder: ObjectIdentifier, what: RegistrationRecord)] = [:]

    /// Makes a state change under the coordinator's lock and wakes every waiter.
    func signal(_ change: () -> Void) {
        mutex.withLock {
            change()
            mutex.broadcast()
        }
    }

    /// Blocks until `condition` (evaluated under the coordinator's lock) holds.
    func waitUntil(_ condition: () -> Bool) {
        mutex.withLock {
            while !condition() { mutex.wait() }
        }
    }

    /// Waits while `currentBuilder()` names a thread other than `waiter`.
    ///
    /// - Throws: ``DIError/circularDependency(path:)`` when waiting would deadlock.
    func waitForBuilder(
        waiter: ObjectIdentifier,
        what: RegistrationRecord,
        waiterPath: @autoclosure () -> [String],
        currentBuilder: () -> ObjectIdentifier?
    ) throws(DIError) {
        mutex.lock()
        defer { mutex.unlock() }
        while let builder = currentBuilder(), builder != waiter {
                var chain = [what]
                var thread = builder
                while let next = waits[thread] {
                    chain.append(next.what)
                    if next.builder == waiter {
                        throw DIError.circularDependency(path: waiterPath() + chain.map(\.displayName))
                    }
                    thread = next.builder
                }
                waits[waiter] = (builder, what)
                mutex.wait()
                waits[waiter] = nil
        }
    }
}
