/* task_slow_twice (TaskWait.pml): finding 8 (README, "Findings"), ADDRESSED: a remembered cycle
 * now marks its chain possibleCycle only, so step 3 below no longer happens and the run passes.
 * With -DREMEMBERED_PROVEN (the previous code: marked as proven, handed on when the build
 * fails) it must fail P1 (`cycleIsHanded`). The scenario, as it was found: it is
 * task_slow_handoff with a factory that throws in its first two runs, and a third top-level
 * task. S's factory starts a Task {} that resolves S, then throws (runs 1 and 2). Tasks 1, 2
 * and 3 resolve S; the factory is slow (SLOW).
 *  1. Task 3 builds S (run 1); its Task {} (task 4) waits for it; a possible cycle. The
 *     factory is slow: task 4's deadline passes (the limit of finding 2). S's ticket is marked
 *     with the cycle [S].
 *  2. Run 1 throws: S remembers [S]; its waiters look again. Task 2 builds S (run 2); its
 *     Task {} (task 5) waits for it: the same possible cycle, which S remembers: reported at
 *     once, and run 2's ticket is marked as on a proven cycle.
 *  3. Run 2 throws: its failure is the marked cycle; task 1, which waits for run 2, gets
 *     circularDependency for S, which is on no cycle (run 3 would build S).
 * Now: no top-level task gets a cycle error. */
#define NT   5
#define NTOP 3
#define S    0
#define SLOW
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, FAIL, 2);
    TOP(1, S); TOP(2, S); TOP(3, S);
    budgetCfg = true; slowCfg = true
}
inline expect() {
    /* no top-level task gets a cycle error */
    expected = (res[1] != E_CYC && res[2] != E_CYC && res[3] != E_CYC); assert(expected)
}
#include "../TaskWait.pml"
