// Counts heap allocations by interposing the C allocator: a symbol defined in the executable wins
// over libc's for every shared library (the Swift runtime included), so each Swift allocation
// passes through here. The real work is done by glibc's exported __libc_* entry points, which
// avoids dlsym (which itself allocates) and keeps this file free of recursion.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_int counting;
static atomic_uint_fast64_t allocations;
static atomic_uint_fast64_t requested;

static inline void note(size_t size) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&requested, size, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    note(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    note(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    note(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

int weavedi_alloc_counting_available(void) { return 1; }

void weavedi_alloc_set_counting(int enabled) {
    atomic_store_explicit(&counting, enabled, memory_order_relaxed);
}

uint64_t weavedi_alloc_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

uint64_t weavedi_alloc_requested_bytes(void) { return atomic_load_explicit(&requested, memory_order_relaxed); }

int64_t weavedi_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
}

#elif defined(__APPLE__)
#include <malloc/malloc.h>

int weavedi_alloc_counting_available(void) { return 0; }
void weavedi_alloc_set_counting(int enabled) { (void)enabled; }
uint64_t weavedi_alloc_count(void) { return 0; }
uint64_t weavedi_alloc_requested_bytes(void) { return 0; }

int64_t weavedi_heap_in_use(void) {
    malloc_statistics_t stats;
    malloc_zone_statistics(NULL, &stats);
    return (int64_t)stats.size_in_use;
}

#else
int weavedi_alloc_counting_available(void) { return 0; }
void weavedi_alloc_set_counting(int enabled) { (void)enabled; }
uint64_t weavedi_alloc_count(void) { return 0; }
uint64_t weavedi_alloc_requested_bytes(void) { return 0; }
int64_t weavedi_heap_in_use(void) { return -1; }
#endif
