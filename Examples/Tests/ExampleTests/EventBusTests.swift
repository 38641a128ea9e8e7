import Foundation
import SharedModels
import Testing

struct EventBusTests {
    struct Ping: Event { let value: Int }
    struct Pong: Event {}
    struct Boom: Error, Equatable { let id: Int }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0 // guarded by `lock`
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func eventsReachSubscribersOfTheirExactTypeInOrder() throws {
        let bus = InProcessEventBus()
        let seen = Recorder()
        bus.subscribe(Ping.self) { seen.append("first \($0.value)") }
        bus.subscribe(Ping.self) { seen.append("second \($0.value)") }
        bus.subscribe(Pong.self) { _ in seen.append("pong") }

        try bus.publish(Ping(value: 1))

        #expect(seen.entries == ["first 1", "second 1"])
        #expect(bus.deliveryCount == 2)
    }

    @Test func aCancelledSubscriptionGetsNothingMore() throws {
        let bus = InProcessEventBus()
        let seen = Recorder()
        let subscription = bus.subscribe(Ping.self) { seen.append("\($0.value)") }
        try bus.publish(Ping(value: 1))
        subscription.cancel()
        subscription.cancel()
        try bus.publish(Ping(value: 2))
        #expect(seen.entries == ["1"])
        #expect(bus.subscriberCount == 0)
    }

    @Test func everySubscriberRunsAndFailuresReachThePublisher() throws {
        let bus = InProcessEventBus()
        let seen = Recorder()
        bus.subscribe(Ping.self) { _ in throw Boom(id: 1) }
        bus.subscribe(Ping.self) { seen.append("ran \($0.value)") }
        bus.subscribe(Ping.self) { _ in throw Boom(id: 3) }

        #expect {
            try bus.publish(Ping(value: 5))
        } throws: { error in
            let delivery = error as? EventDeliveryError
            return delivery?.failures.compactMap { ($0 as? Boom)?.id } == [1, 3]
        }
        #expect(seen.entries == ["ran 5"])
    }

    @Test func handlersMayPublishAndSubscribeWhileBeingDelivered() throws {
        let bus = InProcessEventBus()
        let seen = Recorder()
        bus.subscribe(Ping.self) { _ in
            bus.subscribe(Pong.self) { _ in seen.append("late pong") }
            try bus.publish(Pong())
        }
        try bus.publish(Ping(value: 0))
        #expect(seen.entries == ["late pong"])
    }

    @Test func concurrentPublishingAndSubscribingLosesNothing() async throws {
        let bus = InProcessEventBus()
        let counter = Counter()
        for _ in 0..<10 { bus.subscribe(Ping.self) { _ in counter.increment() } }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        try bus.publish(Ping(value: index))
                        // Subscriptions to another type come and go meanwhile.
                        if index % 50 == 0 { bus.subscribe(Pong.self) { _ in }.cancel() }
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(counter.value == 8 * 200 * 10)
        #expect(bus.deliveryCount == 8 * 200 * 10)
    }

    @Test func theJournalRecordsEventsBeforeDelivery() throws {
        let journal = EventJournal()
        let bus = JournalingEventBus(base: InProcessEventBus(), journal: journal)
        let seen = Recorder()
        bus.subscribe(Pong.self) { _ in seen.append("journal then: \(journal.entries)") }

        try bus.publish(Ping(value: 1))
        try bus.publish(Pong())

        #expect(journal.entries == ["Ping", "Pong"])
        #expect(seen.entries == ["journal then: [\"Ping\", \"Pong\"]"])
    }
}

/// A thread-safe list of strings for assertions.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = [] // guarded by `lock`
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var entries: [String] { lock.withLock { items } }
}
