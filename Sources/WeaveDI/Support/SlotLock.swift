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
/// held. On Apple platforms it is `os_unfair_lock`; elsewhere a `pthread_spinlock_t` taken with
/// `pthread_spin_trylock` (one atomic exchange), falling back to yielding when contended so a
/// preempted holder is not spun against. Both are several times cheaper than `pthread_mutex_t`
/// on the uncontended path every resolution takes.
///
/// Both lock and unlock are deliberately calls into the C library rather than inlined atomics.
/// The resolution path reads an instance or a record under the lock and retains it only because
/// the lock keeps it alive; Swift's optimizer may move a retain past an inlined atomic store (the
/// retain would then race with a concurrent release), but never past a call it cannot see into.
///
/// `SlotLock` is a pointer to the lock word, so the word can live wherever its owner keeps it:
/// registry slots keep it in their arena storage (no allocation per registration), scope
/// instances allocate one with ``init()``.
@usableFromInline
struct SlotLock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Word = os_unfair_lock
    #else
    @usableFromInline typealias Word = pthread_spinlock_t
    #endif

    @usableFromInline let word: UnsafeMutablePointer<Word>

    /// A lock over a word its owner keeps (prepared with ``prepare(_:)``) and frees.
    @inlinable @inline(__always)
    init(word: UnsafeMutablePointer<Word>) { self.word = word }

    /// A lock with a word of its own; release it with ``deallocate()``.
    init() {
        word = .allocate(capacity: 1)
        SlotLock.prepare(word)
    }

    /// Initializes the (uninitialized or trivially initialized) word at `word` as unlocked.
    static func prepare(_ word: UnsafeMutablePointer<Word>) {
        #if canImport(Darwin)
        word.initialize(to: os_unfair_lock())
        #else
        word.initialize(to: 0)
        _ = pthread_spin_init(word, Int32(PTHREAD_PROCESS_PRIVATE))
        #endif
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
        if pthread_spin_trylock(word) != 0 { lockContended() }
    }

    @inlinable @inline(__always)
    func unlock() { _ = pthread_spin_unlock(word) }

    @usableFromInline
    func lockContended() {
        var attempts = 0
        while pthread_spin_trylock(word) != 0 {
            attempts += 1
            // Brief spinning covers a holder running on another core; past that, the holder was
            // probably preempted, so give it the processor.
            if attempts > 64 { sched_yield() }
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
