import Atomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A tiny lock guarding one registry slot.
///
/// Critical sections under it are a handful of loads and stores; factories never run while it is
/// held. On Linux it is a test-and-set lock (one compare-exchange to take, one store to release),
/// which is several times cheaper than `pthread_mutex_t` on the uncontended path every resolution
/// takes. On Apple platforms it is `os_unfair_lock`, which is as cheap and avoids priority inversion.
@usableFromInline
struct SlotLock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let pointer: UnsafeMutablePointer<os_unfair_lock>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: os_unfair_lock())
    }

    func deallocate() { pointer.deallocate() }

    @inlinable @inline(__always)
    func lock() { os_unfair_lock_lock(pointer) }

    @inlinable @inline(__always)
    func unlock() { os_unfair_lock_unlock(pointer) }
    #else
    @usableFromInline let word: UnsafeAtomic<Bool>

    init() { word = .create(false) }

    func deallocate() { word.destroy() }

    @inlinable @inline(__always)
    func lock() {
        if word.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockContended()
    }

    @inlinable @inline(__always)
    func unlock() { word.store(false, ordering: .releasing) }

    @usableFromInline
    func lockContended() {
        var spins = 0
        while true {
            // Spin on a plain load first so waiters do not bounce the cache line.
            while word.load(ordering: .relaxed) {
                spins += 1
                if spins > 64 { sched_yield() }
            }
            if word.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        }
    }
    #endif

    @inlinable @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
