/* task_unstructured_cycle (TaskWait.pml, scenario 8): a cycle of definite edges through a
 * Task {} that builds (finding 4, now proven at once). Task 1 resolves the singleton A, whose
 * factory starts an unstructured Task {} (task 2) that resolves the singleton B, then resolves B
 * itself; B's factory resolves A. When task 2 builds B and task 1 waits for it, task 2's wait
 * for A reaches A's frame, which it inherited (possible), and the chain goes on: task 1 waits
 * for B, which task 2 builds -- a proven cycle, reported at once, whichever wait comes first.
 * A task waiting for a build that fails on the cycle gets it (P7, `ownHanded`); a task that finds
 * A or B already failed builds it again (task 3 is the last Task {} a factory starts).
 * Every cycle error is reported at once: no deadline may pass (`reportedAtOnce`).
 * With -DOWN_CYCLE_UNMARKED (checkOwnPath marks nothing, as before) this must fail P7: task 2,
 * waiting for B when task 1's own path proves the cycle, looks again and builds B and A.
 * With -DSTOP_AT_INHERITED (the walk stops at the first inherited frame, as before) this must
 * fail: task 2 gets circularDependency only when its deadline passes. */
#define NT   3
#define NTOP 1
#define A    0
#define B    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(A, 2); STEP(A, 0, SPAWN_U, B); STEP(A, 1, DEP, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A);
    budgetCfg = true; provenCfg = true
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC && (res[3] == 0 || res[3] == E_CYC) && deadlineHit == 0);
    assert(expected)
}
#include "../TaskWait.pml"
