// The lock word of a registry slot, on platforms without `os_unfair_lock`.
//
// Taking the lock is an inlined compare-and-swap (no call into libc). Releasing it is a call
// on purpose: the resolution path reads an instance under the lock and retains it only because
// the lock keeps it alive, and Swift's optimizer may move a retain past an inlined atomic store,
// but never past a call it cannot see into.
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

/// Releases the lock at `word`, which the caller holds. Defined out of line (see above).
void weavedi_slot_unlock(int *_Nonnull word);

#endif
