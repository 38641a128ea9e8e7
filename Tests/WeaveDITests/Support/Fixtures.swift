import Foundation
import WeaveDI
import WeaveDITestSupport

// Shared test doubles. Each test uses its own Container (or binds one as `shared`), so tests run
// in parallel without seeing each other's registrations.

protocol UserStore: AnyObject, Sendable { var id: UUID { get } }
final class StubUserRepository: UserStore, @unchecked Sendable { let id = UUID() }

protocol DataStore: Sendable {}
final class InMemoryDataStore: DataStore, @unchecked Sendable {}

/// Counts live instances through init/deinit.
final class Tracked: @unchecked Sendable {
    let counter: Counter
    let deinits: Counter
    init(_ counter: Counter, deinits: Counter = Counter()) {
        self.counter = counter
        self.deinits = deinits
        counter.increment()
    }
    deinit { deinits.increment() }
}

struct TestFailure: Error, Equatable { let reason: String }

// Cycle fixtures: A -> B -> C -> A, and Self -> Self.
final class LoopA: Sendable {
    let b: LoopB?
    init(b: LoopB?) { self.b = b }
}
final class LoopB: Sendable {
    let c: LoopC?
    init(c: LoopC?) { self.c = c }
}
final class LoopC: Sendable {
    let a: LoopA?
    init(a: LoopA?) { self.a = a }
}
final class SelfNeeding: Sendable {
    let me: SelfNeeding?
    init(me: SelfNeeding?) { self.me = me }
}

/// Runs each body on its own thread, all released at once, and returns their results in order.
/// The threads log into the calling test's capture (`.capturesLog`), if it has one.
func runOnThreads<R>(_ bodies: [@Sendable () -> R]) -> [R] {
    let results = ThreadResults<R>(count: bodies.count)
    let capture = LogCapture.current
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for (index, body) in bodies.enumerated() {
        done.enter()
        let thread = Thread {
            start.wait()
            let value = withCurrentLogCapture(capture, body)
            results.set(index, value)
            done.leave()
        }
        thread.start()
    }
    for _ in bodies { start.signal() }
    done.wait()
    return results.all
}

final class ThreadResults<R>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [R?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: R) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }
    var all: [R] {
        lock.lock()
        defer { lock.unlock() }
        return values.map { $0! }
    }
}
