// The current thread's resolution stack, in a C thread-local variable.
//
// Swift has no thread-local storage of its own; `pthread_getspecific` costs a call into libc on
// every factory run. A `_Thread_local` read inlined into Swift code is a single load from the
// thread's block once the linker has resolved it (always, in an executable that links WeaveDI
// statically; a shared library pays the platform's TLS call, as fast as `pthread_getspecific`).
// WeaveDI still registers each stack with a pthread key, whose destructor frees it when the
// thread exits and clears this variable.
#ifndef WEAVEDI_THREAD_LOCAL_H
#define WEAVEDI_THREAD_LOCAL_H

extern _Thread_local void *_Nullable weavedi_current_stack;

/// The current thread's stack header, or NULL before its first resolution.
static inline void *_Nullable weavedi_current_stack_get(void) { return weavedi_current_stack; }

/// Sets (or, with NULL, clears) the current thread's stack header.
static inline void weavedi_current_stack_set(void *_Nullable header) { weavedi_current_stack = header; }

#endif
