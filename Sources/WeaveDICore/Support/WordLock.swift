import CWeaveDIShims

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A lock that is one word, kept wherever its owner puts it: each registry slot's lock (in the
/// slot's cache line), each scope instance's, and the registry's write lock.
///
/// Critical sections under it are a handful of loads and stores; factories never run while it is
/// held. On Apple platforms it is `os_unfair_lock`; elsewhere a word taken with one inlined
/// compare-and-swap, falling back to spinning on reads and then yielding when contended, so a
/// preempted holder is not spun against.
///
/// The resolution path reads an instance or a record under the lock and retains it only because
/// the lock keeps it alive, and Swift's optimizer may move a retain past a plain atomic store (the
/// retain would then race with a concurrent release). So releasing is never a plain store: it is
/// `os_unfair_lock_unlock` (a call the optimizer cannot see into), or `weavedi_slot_unlock`, whose
/// store follows a compiler barrier the optimizer treats the same way. Taking the lock needs no
/// such care: nothing read under it can be retained before it.
///
/// `WordLock` is a pointer to the lock word, so the word can live wherever its owner keeps it:
/// registry slots keep it in their arena storage (no allocation per registration), scope
/// instances allocate one with ``init()``.
@usableFromInline
package struct WordLock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline typealias Word = os_unfair_lock
    #else
        @usableFromInline typealias Word = CInt
    #endif

    @usableFromInline let word: UnsafeMutablePointer<Word>

    /// A lock over a word its owner keeps (prepared with ``prepare(_:)``) and frees.
    @inlinable @inline(__always)
    init(word: UnsafeMutablePointer<Word>) { self.word = word }

    /// A lock with a word of its own; release it with ``deallocate()``.
    init() {
        word = .allocate(capacity: 1)
        WordLock.prepare(word)
    }

    /// Initializes the (uninitialized or trivially initialized) word at `word` as unlocked.
    static func prepare(_ word: UnsafeMutablePointer<Word>) {
        #if canImport(Darwin)
            word.initialize(to: os_unfair_lock())
        #else
            word.initialize(to: 0)
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
            if !weavedi_slot_try_lock(word) { lockContended() }
        }

        @inlinable @inline(__always)
        func unlock() { weavedi_slot_unlock(word) }

        @usableFromInline
        func lockContended() {
            var attempts = 0
            repeat {
                // Read before retrying, so waiting threads do not keep stealing the line from the
                // holder. Brief spinning covers a holder running on another core; past that, the
                // holder was probably preempted, so give it the processor.
                while weavedi_slot_is_locked(word) {
                    attempts += 1
                    if attempts > 64 { sched_yield() }
                }
            } while !weavedi_slot_try_lock(word)
        }
    #endif

    /// Debug builds: stops the program when the lock is not held — by the calling thread, where
    /// the platform can tell (Apple's), by anyone elsewhere. For code whose contract says "call
    /// with the lock held". Compiled out of release builds.
    @inlinable @inline(__always)
    func assertHeld() {
        #if DEBUG
            #if canImport(Darwin)
                os_unfair_lock_assert_owner(word)
            #else
                assert(weavedi_slot_is_locked(word), "WeaveDI: a slot lock that must be held is free")
            #endif
        #endif
    }

    @inlinable @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
