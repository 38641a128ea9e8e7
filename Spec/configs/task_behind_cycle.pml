/* task_behind_cycle (TaskWait.pml, scenario 9): a task waiting behind another cycle (finding
 * 1, addressed). Task 1 resolves the singleton S. S's factory starts an unstructured Task {}
 * (task 2) that resolves S, then calls `try? await resolve(T)` and goes on whatever that gives.
 * The transient T's factory resolves T in a structured child (task 3) and awaits it: a real
 * cycle, broken by task 3's deadline; S is then built and task 2 gets it. Task 2's wait for S is
 * a possible cycle too (S's frame is inherited), and it is stuck for as long as task 1 is stuck
 * in T. Task 3 waits deeper inside S's build (it inherited S's frame, and T's frame is its
 * innermost): when task 2's deadline passes first, it gives way (`expire`,
 * `deeperPossibleCycle`), whichever deadline was armed first. Every task but task 3 succeeds;
 * no wait sees two of its deadlines pass (P6).
 * With -DNO_DEFER (expire without the deferral) this must fail P1: task 2 gets
 * circularDependency. With -DNO_ORDER (a re-armed deadline may pass before the deadlines
 * pending when it was re-armed) it fails P1 too, a limit (README, "Findings", 6): task 2 gives
 * way MAXDEFER times and then fails, task 3's deadline never having passed. */
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
