import Foundation

// The tests' thread-safe bookkeeping, one of each: a counter, a list, and a locked value.

/// Counts from any thread: factory runs, instances, serial numbers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one.
    func increment() { lock.withLock { count += 1 } }

    /// Adds one and returns the new count (1 for the first call).
    @discardableResult
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    /// The count so far.
    var value: Int { lock.withLock { count } }
}

/// Collects values from any thread, in the order they were appended.
final class Recorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }

    /// Everything appended so far.
    var all: [Element] { lock.withLock { items } }
}

/// A value read and changed under a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

extension Locked where Value == Set<String> {
    func insert(_ element: String) { mutate { _ = $0.insert(element) } }
}
