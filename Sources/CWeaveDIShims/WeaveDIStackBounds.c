// The current thread's stack bounds, from the platform's thread library.
#if defined(__linux__)
    #define _GNU_SOURCE
#endif

#include "WeaveDIStackBounds.h"

#include <pthread.h>
#include <stddef.h>

int weavedi_thread_stack_bounds(uintptr_t *_Nonnull low, uintptr_t *_Nonnull high) {
#if defined(__APPLE__)
    // The stack address Darwin reports is the top (highest address) of the stack.
    pthread_t self = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
    size_t size = pthread_get_stacksize_np(self);
    if (top == 0 || size == 0 || size > top) return -1;
    *low = top - size;
    *high = top;
    return 0;
#elif defined(__linux__)
    // glibc and musl describe the usable stack, guard pages excluded; for the main thread, glibc
    // derives it from RLIMIT_STACK and the mapping the stack grows in.
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = NULL;
    size_t size = 0;
    int status = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    if (status != 0 || address == NULL || size == 0) return -1;
    *low = (uintptr_t)address;
    *high = (uintptr_t)address + size;
    return 0;
#else
    (void)low;
    (void)high;
    return -1;
#endif
}
