#if Hummingbird
    import Atomics
    import WeaveDI
    import WeaveDITestSupport

    /// What happened, in order, across tasks.
    actor EventLog {
        private(set) var events: [String] = []

        func append(_ event: String) { events.append(event) }

        /// Waits (up to `timeout`) until `condition` holds for the events; returns them.
        func waitUntil(timeout: Duration = .seconds(10), _ condition: @Sendable ([String]) -> Bool) async -> [String] {
            let deadline = ContinuousClock.now + timeout
            while !condition(events), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return events
        }
    }

    /// A request-scoped object with async teardown, like a unit of work.
    final class RequestToken: AsyncDisposable {
        let id: Int
        let log: EventLog

        init(id: Int, log: EventLog) {
            self.id = id
            self.log = log
        }

        func dispose(reason: DisposalReason) async {
            await log.append("dispose \(id) \(reason)")
        }
    }

    /// Weak references to every instance built, to check none outlives its request.
    final class LiveInstances: Sendable {
        private final class Weak: @unchecked Sendable {
            weak var object: AnyObject?
            init(_ o: AnyObject) { object = o }
        }
        private let lock = ManagedAtomic<Bool>(false)
        private nonisolated(unsafe) var refs: [Weak] = []

        func track(_ object: AnyObject) {
            while !lock.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
            refs.append(Weak(object))
            lock.store(false, ordering: .releasing)
        }

        var aliveCount: Int {
            while !lock.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
            defer { lock.store(false, ordering: .releasing) }
            return refs.filter { $0.object != nil }.count
        }
    }
#endif
