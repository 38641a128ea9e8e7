import Foundation

/// An ``EventBus`` inside the process: subscribe and publish from any thread.
///
/// Handlers are kept under a lock but run outside it, so a handler may publish further events or
/// subscribe without deadlocking; a handler cancelled while an event is being delivered may still
/// receive that one event.
public final class InProcessEventBus: EventBus, @unchecked Sendable {
    private struct Subscriber {
        let id: Int
        let deliver: @Sendable (any Event) throws -> Void
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var subscribers: [ObjectIdentifier: [Subscriber]] = [:]
    private var nextID = 0
    private var delivered = 0

    public init() {}

    public func publish(_ event: any Event) throws {
        let key = ObjectIdentifier(type(of: event))
        let targets = lock.withLock { () -> [Subscriber] in
            let targets = subscribers[key] ?? []
            delivered += targets.count
            return targets
        }
        var failures: [any Error] = []
        for subscriber in targets {
            do { try subscriber.deliver(event) } catch { failures.append(error) }
        }
        if !failures.isEmpty {
            throw EventDeliveryError(event: String(describing: type(of: event)), failures: failures)
        }
    }

    @discardableResult
    public func subscribe<T: Event>(_ type: T.Type, handler: @escaping @Sendable (T) throws -> Void)
        -> EventSubscription
    {
        let key = ObjectIdentifier(type)
        let id = lock.withLock { () -> Int in
            nextID += 1
            subscribers[key, default: []].append(
                Subscriber(id: nextID) { event in
                    // Keyed by the exact type, so the cast always succeeds.
                    if let event = event as? T { try handler(event) }
                })
            return nextID
        }
        return EventSubscription { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.subscribers[key]?.removeAll { $0.id == id } }
        }
    }

    /// How many deliveries (event × subscriber) have been made so far.
    public var deliveryCount: Int { lock.withLock { delivered } }

    /// How many subscriptions are active.
    public var subscriberCount: Int { lock.withLock { subscribers.values.reduce(0) { $0 + $1.count } } }
}
