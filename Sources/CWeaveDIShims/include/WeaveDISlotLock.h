// The lock word of a registry slot, on platforms without `os_unfair_lock`.
//
// Taking and releasing the lock are inlined atomics (no call into libc). The resolution path
// reads an instance under the lock and retains it only because the lock keeps it alive, and
// Swift's optimizer may move a retain past a plain atomic store; the release therefore starts
// with a compiler barrier, which it treats like a call it cannot see into.
#ifndef WEAVEDI_SLOT_LOCK_H
#define WEAVEDI_SLOT_LOCK_H

#include <stdatomic.h>
#include <stdbool.h>

/// Takes the lock at `word` if it is free (0 free, 1 held); returns whether it did.
static inline bool weavedi_slot_try_lock(int *_Nonnull word) {
    int expected = 0;
    return atomic_compare_exchange_strong_explicit((_Atomic int *)word, &expected, 1,
                                                   memory_order_acquire, memory_order_relaxed);
}

/// Whether the lock at `word` is held (a relaxed read, for spinning before retrying).
static inline bool weavedi_slot_is_locked(int *_Nonnull word) {
    return atomic_load_explicit((_Atomic int *)word, memory_order_relaxed) != 0;
}

/// Releases the lock at `word`, which the caller holds.
///
/// The empty `asm` with a memory clobber comes first: to the optimizer it is an opaque
/// instruction that may read and write anything, so a retain made under the lock stays before it
/// (and so before the releasing store), as it would before a call.
static inline void weavedi_slot_unlock(int *_Nonnull word) {
    __asm__ __volatile__("" ::: "memory");
    atomic_store_explicit((_Atomic int *)word, 0, memory_order_release);
}

#endif
