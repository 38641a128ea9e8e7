#include "WeaveDISlotLock.h"

void weavedi_slot_unlock(int *_Nonnull word) {
    atomic_store_explicit((_Atomic int *)word, 0, memory_order_release);
}
