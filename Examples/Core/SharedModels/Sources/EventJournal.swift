import Foundation

/// The events published so far, by type name, in order: what a developer or a test wants to see
/// after a flow ran.
public final class EventJournal: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = [] // guarded by `lock`

    public init() {}

    public func record(_ event: any Event) {
        let name = String(describing: type(of: event))
        lock.withLock { names.append(name) }
    }

    /// Event type names in publication order.
    public var entries: [String] { lock.withLock { names } }
}

/// An ``EventBus`` decorator that writes every published event into an ``EventJournal`` before
/// delivering it through the bus it wraps.
public struct JournalingEventBus: EventBus {
    public let base: any EventBus
    public let journal: EventJournal

    public init(base: any EventBus, journal: EventJournal) {
        self.base = base
        self.journal = journal
    }

    public func publish(_ event: any Event) throws {
        journal.record(event)
        try base.publish(event)
    }

    @discardableResult
    public func subscribe<T: Event>(_ type: T.Type, handler: @escaping @Sendable (T) throws -> Void)
        -> EventSubscription
    {
        base.subscribe(type, handler: handler)
    }
}
