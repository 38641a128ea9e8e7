import Foundation

/// A mutex for slow paths (registration, reset, coordination), with a condition for waiting.
///
/// Backed by `NSCondition`, which is `pthread_mutex_t` + `pthread_cond_t` on every platform.
@usableFromInline
final class ConditionMutex: @unchecked Sendable {
    private let condition = NSCondition()

    init() {}

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    func lock() { condition.lock() }

    func unlock() { condition.unlock() }

    /// Waits on the condition; must be called with the lock held (inside `withLock`).
    func wait() { condition.wait() }

    /// Wakes every waiter; call with the lock held.
    func broadcast() { condition.broadcast() }
}

/// A value guarded by a mutex, for state that is read and written only on slow paths.
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}
