#if ServiceLifecycle
import ServiceLifecycle

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

    var description: String { name }

    func run() async throws {
        if let previousStarted {
            for await _ in previousStarted {}  // returns at once when the task is cancelled
            try Task.checkCancellation()
        }
        started.finish()
        try await service.run()
    }

    /// Wraps `services`, in this order, so each enters `run()` after the one before it has.
    static func chain(_ services: [(service: any Service, name: String)]) -> [OrderedStart] {
        var previous: AsyncStream<Void>?
        var wrapped: [OrderedStart] = []
        for (service, name) in services {
            let (stream, continuation) = AsyncStream<Void>.makeStream()
            wrapped.append(OrderedStart(service: service, name: name, previousStarted: previous, started: continuation))
            previous = stream
        }
        return wrapped
    }
}
#endif
