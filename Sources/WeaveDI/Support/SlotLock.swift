import Atomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A tiny lock guarding one registry slot (or one scope instance).
///
/// Critical sections under it are a handful of loads and stores; factories never run while it is
/// held. On Linux it is a test-and-set lock (one compare-exchange to take, one store to release),
/// which is several times cheaper than `pthread_mutex_t` on the uncontended path every resolution
/// takes. On Apple platforms it is `os_unfair_lock`, which is as cheap and avoids priority inversion.
///
/// `SlotLock` is a pointer to the lock word, so the word can live wherever its owner keeps it:
/// registry slots keep it in their own allocation (no separate allocation per registration), scope
/// instances allocate one with ``init()``.
@usableFromInline
struct SlotLock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Word = os_unfair_lock
    @usableFromInline static var unlockedWord: Word { os_unfair_lock() }
    #else
    @usableFromInline typealias Word = UnsafeAtomic<Bool>.Storage
    @usableFromInline static var unlockedWord: Word { Word(false) }
    #endif

    @usableFromInline let word: UnsafeMutablePointer<Word>

    /// A lock over a word its owner keeps (initialized to ``unlockedWord``) and frees.
    @inlinable @inline(__always)
    init(word: UnsafeMutablePointer<Word>) { self.word = word }

    /// A lock with a word of its own; release it with ``deallocate()``.
    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: SlotLock.unlockedWord)
    }

    func deallocate() { word.deallocate() }

    #if canImport(Darwin)
    @inlinable @inline(__always)
    func lock() { os_unfair_lock_lock(word) }

    @inlinable @inline(__always)
    func unlock() { os_unfair_lock_unlock(word) }
    #else
    @inlinable @inline(__always)
    func lock() {
        if UnsafeAtomic<Bool>(at: word).compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            return
        }
        lockContended()
    }

    @inlinable @inline(__always)
    func unlock() { UnsafeAtomic<Bool>(at: word).store(false, ordering: .releasing) }

    @usableFromInline
    func lockContended() {
        let atomic = UnsafeAtomic<Bool>(at: word)
        var spins = 0
        while true {
            // Spin on a plain load first so waiters do not bounce the cache line.
            while atomic.load(ordering: .relaxed) {
                spins += 1
                if spins > 64 { sched_yield() }
            }
            if atomic.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
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
