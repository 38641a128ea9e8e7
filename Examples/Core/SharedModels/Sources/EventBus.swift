/// Carries events between features that do not know each other.
///
/// The container holds one bus (a singleton); every feature resolves it. The Multi-Module Projects
/// guide's shape, made thread-safe and with errors that reach the publisher.
public protocol EventBus: Sendable {
    /// Delivers `event` to every subscriber of its exact type, in subscription order, on the calling
    /// thread, and returns when all have run. If any subscriber throws, the others still run and
    /// `publish` then throws ``EventDeliveryError`` with every failure.
    func publish(_ event: any Event) throws

    /// Calls `handler` for every later event of type `T` until the subscription is cancelled.
    @discardableResult
    func subscribe<T: Event>(_ type: T.Type, handler: @escaping @Sendable (T) throws -> Void) -> EventSubscription
}

/// Returned by ``EventBus/subscribe(_:handler:)``; cancelling it stops deliveries to the handler.
public struct EventSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops deliveries. Cancelling twice is harmless.
    public func cancel() { onCancel() }
}

/// Subscribers of one published event threw.
public struct EventDeliveryError: Error, CustomStringConvertible {
    /// The event's type name.
    public let event: String
    /// What each failing subscriber threw, in subscription order.
    public let failures: [any Error]

    public init(event: String, failures: [any Error]) {
        self.event = event
        self.failures = failures
    }

    public var description: String {
        "\(failures.count) subscriber(s) of \(event) failed: "
            + failures.map { "\($0)" }.joined(separator: "; ")
    }
}
