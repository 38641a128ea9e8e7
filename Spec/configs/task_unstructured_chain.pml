/* task_unstructured_chain (TaskWait.pml, scenario 4): the transient T's factory starts an
 * unstructured Task {} that resolves T again and returns; so does that task's run of T, for
 * three generations (tasks 1, 2, 3; the third run of T finds no task id left and starts none).
 * Each task waits for the previous run's frame to close if it is still open, then runs T.
 * Every task must succeed.
 * With -DNEVER_CLOSE (frames never closed) this must fail P1 (a false cycle). */
#define NT   3
#define NTOP 1
#define T    0
#include "../TaskWait.h"

inline configure() {
    LIFETIME(T, TRANSIENT);
    STEPS(T, 1); STEP(T, 0, SPAWN_U, T);
    TOP(1, T);
    budgetCfg = true
}
inline expect() {
    expected = (res[1] == R_OK && res[2] == R_OK && res[3] == R_OK && deadlineHit == 0);
    assert(expected)
}
#include "../TaskWait.pml"
