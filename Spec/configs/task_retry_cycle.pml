/* task_retry_cycle (TaskWait.pml, scenario 11): retries of a build on a possible cycle. A's
 * factory resolves B in a structured child and awaits it; B's factory resolves A. Task 1
 * resolves A, tasks 2 and 3 resolve B. The first cycle formed is possible (through the child),
 * and ends at a deadline. The builds on it fail; their other waiters look again and one of them
 * builds (a retry), which forms the same cycle again: reported at once, since a registration
 * on it remembers it (AsyncRecord.failedOnPossibleCycle). P6: at most MAXDL waits of a run end
 * at a deadline.
 * With -DNO_MEMORY (no remembered cycles) this must fail P6: each retry waits for a deadline
 * of its own. */
#define NT   5
#define NTOP 3
#define A    0
#define B    1
#ifndef MAXDL
#define MAXDL 1
#endif
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(A, 1); STEP(A, 0, SPAWN_S, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A); TOP(2, B); TOP(3, B);
    budgetCfg = true; maxDeadlines = MAXDL
}
inline expect() {
    /* unless the last run of A found no task id left for its child (and so built A) */
    expected = budgetHit || (res[1] == E_CYC && res[2] == E_CYC && res[3] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
