#if ServiceLifecycle
    import Foundation
    import ServiceLifecycle
    import WeaveDI

    /// The names of the services whose `run()` was called, in the order it was called.
    final class StartLog: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []

        func record(_ name: String) {
            lock.lock()
            names.append(name)
            lock.unlock()
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return names
        }
    }

    /// Runs `service` only once the service before it in the group's order has entered `run()`, and
    /// tells the next one when it enters `run()` itself.
    ///
    /// A `ServiceGroup` starts all its services at once, each in a child task; this wrapper turns the
    /// array order into a start order. The wrapper runs the service in the group's own child task, so
    /// the group's graceful shutdown and cancellation reach it unchanged.
    struct OrderedStart: Service, CustomStringConvertible {
        let service: any Service
        let name: String
        /// Finishes when the previous service entered `run()`; `nil` for the first service.
        let previousStarted: AsyncStream<Void>?
        /// Told when this service enters `run()`.
        let started: AsyncStream<Void>.Continuation
        /// Where the call of the service's `run()` is recorded, before the next service may start.
        let log: StartLog
        /// Whether the start is recorded in `log` (a singleton's disposal is not a service).
        let isService: Bool

        var description: String { name }

        func run() async throws {
            if let previousStarted {
                for await _ in previousStarted {} // returns at once when the task is cancelled
                try Task.checkCancellation()
            }
            if isService { log.record(name) }
            started.finish()
            try await service.run()
        }

        /// Wraps `services`, in this order, so each enters `run()` after the one before it has.
        static func chain(
            _ services: [(service: any Service, name: String, isService: Bool)], log: StartLog
        ) -> [OrderedStart] {
            var previous: AsyncStream<Void>?
            var wrapped: [OrderedStart] = []
            for (service, name, isService) in services {
                let (stream, continuation) = AsyncStream<Void>.makeStream()
                wrapped.append(
                    OrderedStart(
                        service: service, name: name, previousStarted: previous, started: continuation, log: log,
                        isService: isService))
                previous = stream
            }
            return wrapped
        }
    }

    /// A singleton that is a service and `AsyncDisposable`: runs the service, then, once its
    /// `run()` has returned normally (a graceful shutdown), disposes it. When `run()` throws, the
    /// group's final ``WeaveDI/Container/disposeSingletons(where:)`` disposes it instead.
    struct ServiceThenDisposal: Service {
        let service: any Service
        let container: Container
        let type: Any.Type
        let name: String?

        func run() async throws {
            try await service.run()
            await container.disposeSingleton(type, name: name)
        }
    }

    /// A place in a service group for a singleton that is `AsyncDisposable` and not a service: it
    /// runs until the group shuts down gracefully, then disposes the singleton (after everything
    /// started after it, which is everything that depends on it, has stopped). When the group is
    /// cancelled instead, the order is lost: it disposes nothing and leaves the singleton to the
    /// group's final ``WeaveDI/Container/disposeSingletons(where:)``.
    struct SingletonDisposal: Service {
        let container: Container
        let type: Any.Type
        let name: String?

        func run() async throws {
            do {
                try await gracefulShutdown()
            } catch {
                return
            }
            await container.disposeSingleton(type, name: name)
        }
    }
#endif
