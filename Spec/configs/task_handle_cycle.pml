/* task_handle_cycle (TaskWait.pml, scenario 13): a Task {} that outlives the factory that
 * started it, awaited by the still open factory above (paths skip closed frames). The
 * singleton A's factory resolves the transient B (W in the review), whose factory starts `Task { try await
 * resolve(A) }` (task 2) and returns its handle in B's value (B's frame closes); A's factory
 * then awaits the handle. Task 2's path is B's closed frame, skipped, then A's open frame: its
 * wait for A's ticket is a possible cycle; at the deadline it gets circularDependency, which
 * A's factory rethrows: task 1 gets it too.
 * With -DSTOP_AT_CLOSED (the path ends at the first closed frame) this must fail P2 (a hang):
 * task 2 inherits nothing and waits for A without a deadline. */
#define NT   2
#define NTOP 1
#define A    0
#define B    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, TRANSIENT);
    STEPS(A, 2); STEP(A, 0, DEP, B); STEP(A, 1, AWAIT_U, B);
    STEPS(B, 1); STEP(B, 0, SPAWN_U, A);
    TOP(1, A)
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
