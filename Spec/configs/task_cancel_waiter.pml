/* task_cancel_waiter (TaskWait.pml, scenario 7): task_child_cycle, and task 2 (which waits for
 * A, with or without a deadline) is cancelled at any moment, with its structured descendants.
 * Each suspended wait is resumed exactly once (finish, cancellation or deadline); nothing hangs.
 * Task 1 still ends with circularDependency; task 2 with it or with CancellationError.
 * With -DCANCEL_DOUBLE_RESUME this must fail P4; with -DCANCEL_NO_RESUME, P2 (a hang). */
#define NT   4
#define NTOP 2
#define A    0
#define B    1
#define EVENTS run Cancel(2)
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(A, 1); STEP(A, 0, SPAWN_S, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A); TOP(2, B);
    cancelCfg = true
}
inline expect() {
    expected = (res[1] == E_CYC && (res[2] == E_CYC || res[2] == E_CANC)); assert(expected)
}
#include "../TaskWait.pml"
