import Foundation

// The tests' thread-safe bookkeeping, one of each, shared by every test target: a counter, a list,
// and a locked value.

/// Counts from any thread: factory runs, instances, serial numbers.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// Adds one.
    public func increment() { lock.withLock { count += 1 } }

    /// Adds one and returns the new count (1 for the first call).
    @discardableResult
    public func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    /// The count so far.
    public var value: Int { lock.withLock { count } }
}

/// Collects values from any thread, in the order they were appended.
public final class Recorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    public init() {}

    public func append(_ item: Element) { lock.withLock { items.append(item) } }

    /// Everything appended so far.
    public var all: [Element] { lock.withLock { items } }
}

/// A value read and changed under a lock.
///
/// Tests share state through this rather than `Synchronization.Mutex`: on Linux a `Mutex` waits on
/// a futex, which ThreadSanitizer does not see, so it reports the value it guards as raced.
public final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value { lock.withLock { stored } }

    public func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }

    /// Runs `body` with the value under the lock and returns its result.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}

extension LockedValue where Value == Set<String> {
    public func insert(_ element: String) { mutate { _ = $0.insert(element) } }
}
