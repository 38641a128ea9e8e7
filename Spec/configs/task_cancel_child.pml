/* task_cancel_child (TaskWait.pml, scenario 7): task_child_cycle, and task 1 is cancelled at
 * any moment, with its structured child (which waits for B, with or without a deadline). A
 * cancelled child fails A's factory with CancellationError (not a cycle error), so task 2, if it
 * waits for A, looks again and builds A itself. Each suspended wait is resumed exactly once;
 * nothing hangs; task 2 still ends with circularDependency. */
#define NT   4
#define NTOP 2
#define A    0
#define B    1
#define EVENTS run Cancel(1)
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(A, 1); STEP(A, 0, SPAWN_S, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A); TOP(2, B);
    cancelCfg = true
}
inline expect() {
    expected = ((res[1] == E_CYC || res[1] == E_CANC) && res[2] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
