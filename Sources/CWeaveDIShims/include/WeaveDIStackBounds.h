// The current thread's stack, for the guard that stops a chain of nested factories before it
// overflows the stack (`ThreadStack.checkStackRoom`).
#ifndef WEAVEDI_STACK_BOUNDS_H
#define WEAVEDI_STACK_BOUNDS_H

#include <stdint.h>

/// Reads the lowest and highest address of the current thread's stack (the stack grows down,
/// from `high` towards `low`; guard pages are below `low`). Returns 0 on success, -1 where the
/// platform does not say (then `low` and `high` are left alone).
///
/// Costs a system call or two on Linux (and, on the main thread, a read of /proc/self/maps):
/// WeaveDI calls it once per thread and keeps the answer with the thread's resolution stack.
int weavedi_thread_stack_bounds(uintptr_t *_Nonnull low, uintptr_t *_Nonnull high);

/// An address in the caller's stack frame (its frame address): how far down the stack the
/// caller runs. Inlined, so it is one register read.
static inline __attribute__((always_inline)) uintptr_t weavedi_stack_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

#endif
