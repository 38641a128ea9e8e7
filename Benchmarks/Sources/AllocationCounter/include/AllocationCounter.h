#ifndef WEAVEDI_ALLOCATION_COUNTER_H
#define WEAVEDI_ALLOCATION_COUNTER_H

#include <stdint.h>

/// 1 when allocation calls can be counted on this platform (glibc), 0 otherwise.
int weavedi_alloc_counting_available(void);

/// Starts or stops counting. Counting is off by default so timed rounds pay only one relaxed load
/// per allocation; the harness switches it on for a separate, untimed pass.
void weavedi_alloc_set_counting(int enabled);

/// Allocation calls (malloc, calloc, realloc, memalign family) seen while counting was on.
uint64_t weavedi_alloc_count(void);

/// Bytes requested by those calls.
uint64_t weavedi_alloc_requested_bytes(void);

/// Heap bytes in use right now, allocator overhead included (mallinfo2 on glibc,
/// malloc_zone_statistics on Darwin); -1 when the platform offers neither.
int64_t weavedi_heap_in_use(void);

#endif
