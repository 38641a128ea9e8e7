/* task_slow_handoff (TaskWait.pml, scenario 12): a slow factory's Task {} past its deadline,
 * then the build fails for another reason. S's factory starts a Task {} that resolves S, then
 * throws an error of its own in its first run (a failure that is not a cycle). Tasks 1 and 2
 * resolve S. The factory is slow (SLOW: a deadline may pass while the build can still finish),
 * so the Task {}'s wait may end at its deadline with circularDependency: the limit of finding 2,
 * accepted here (slowCfg). That deadline marks S's ticket with the possible cycle. When the
 * build then fails, its waiter (the other top-level task) must not get that cycle: it looks
 * again and builds S. A retry's Task {} that forms the same cycle again gets it at once (S
 * remembers it): the same false cycle, see README, Findings.
 * With -DHAND_OFF_POSSIBLE (a failed build hands its possible cycle to its waiters) this must
 * fail P1: the other top-level task, on no cycle, gets circularDependency. */
#define NT   4
#define NTOP 2
#define S    0
#define SLOW
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, FAIL, 1);
    TOP(1, S); TOP(2, S);
    budgetCfg = true; slowCfg = true
}
inline expect() {
    /* the first build fails with its own error (whoever runs it), the other top-level task
     * gets S; a Task {} gets S or (the limit) circularDependency */
    expected = ((res[1] == E_FAIL && res[2] == R_OK) || (res[1] == R_OK && res[2] == E_FAIL)) &&
               (res[3] == 0 || res[3] == R_OK || res[3] == E_CYC) &&
               (res[4] == 0 || res[4] == R_OK || res[4] == E_CYC);
    assert(expected)
}
#include "../TaskWait.pml"
