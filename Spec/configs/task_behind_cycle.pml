/* task_behind_cycle (TaskWait.pml, scenario 9): a task waiting behind another cycle (finding
 * 1, now addressed). Task 1 resolves the singleton S. S's factory starts an unstructured
 * Task {} (task 2) that resolves S, then calls `try? await resolve(T)` and goes on whatever that
 * gives. The transient T's factory resolves T in a structured child (task 3) and awaits it: a
 * real cycle, broken by task 3's deadline; S is then built and task 2 gets it. Task 2's wait for
 * S is a possible cycle too (S's frame is inherited), and it is stuck for as long as task 1 is
 * stuck in T. If task 2 started waiting first, its deadline passes first: task 3, armed later,
 * waits inside S's frame (it inherited it), so task 2's deadline is re-armed (`expire`, rule 1)
 * and task 3's passes. If task 3 started waiting first, its deadline passes first.
 * Every task but task 3 succeeds.
 * With -DNO_DEFER (expire without rule 1) this must fail P1: task 2 gets circularDependency.
 * With -DANY_ORDER (deadlines pass in any order) it fails P1 too, a limit (README, "Findings"):
 * task 2's deadline, armed after task 3's, passes first, and none was armed after it. */
#define NT   3
#define NTOP 1
#define S    0
#define T    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED); LIFETIME(T, TRANSIENT);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, TRY, T);
    STEPS(T, 1); STEP(T, 0, SPAWN_S, T);
    TOP(1, S)
}
inline expect() {
    expected = (res[1] == R_OK && res[2] == R_OK && res[3] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
