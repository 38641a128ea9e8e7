/* task_cancel_unstructured (TaskWait.pml, scenario 7): task_unstructured_self, and the
 * unstructured task 2 (whose wait for S is a possible cycle, with a deadline) is cancelled at
 * any moment once it exists: before it waits, while it waits (racing `finish`), or after. It
 * gets S or CancellationError, resumed exactly once; task 1 gets S. */
#define NT   2
#define NTOP 1
#define S    0
#define X    1
#define EVENTS run Cancel(2)
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED); LIFETIME(X, SHARED);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, DEP, X);
    TOP(1, S);
    cancelCfg = true
}
inline expect() {
    expected = (res[1] == R_OK && (res[2] == R_OK || res[2] == E_CANC) && deadlineHit == 0);
    assert(expected)
}
#include "../TaskWait.pml"
