/* task_deeper_task (TaskWait.pml): a FINDING (README, "Findings", 9) -- the deferral rule lets
 * a wait deeper inside a build go first, and that may be a Task {} that only waits behind the
 * build's cycle. A's factory starts a Task {} that resolves S, then resolves B in a structured
 * child and awaits it; B's factory resolves A (the real cycle A -> B -> A). S's factory starts a
 * Task {} that resolves S, then does `_ = try? await resolve(A)`. Task 1 resolves A.
 *  1. Task 1 builds A (frame F_A) and starts task 2 (Task {}), which builds S (frame F_S, under
 *     F_A) and starts task 3 (Task {}); task 3 inherits F_S and F_A and waits for S: possible.
 *  2. Task 2 waits for A (F_A inherited): possible. Task 1 starts its child, task 4, which
 *     builds B and waits for A: possible, and the real cycle.
 *  3. Task 4's deadline passes: task 3 waits inside F_A with F_S innermost, so it is deeper
 *     inside A's build (it may be a structured grandchild of A whose cycle blocks A): task 4
 *     gives way. Task 3's deadline passes; nobody is deeper than task 3: it gets
 *     circularDependency for S.
 *  4. Task 2's deadline passes (nobody deeper now): circularDependency for A, which S's `try?`
 *     catches, and S is built: task 3's error was false. Task 4's second deadline passes (P6:
 *     maxFires 2 here), B and A fail.
 * Expected to fail P1 (`cycleIsDeclared`: S is on no cycle of the awaits). */
#define NT   5
#define NTOP 1
#define S    0
#define A    1
#define B    2
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED); LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, TRY, A);
    STEPS(A, 2); STEP(A, 0, SPAWN_U, S); STEP(A, 1, SPAWN_S, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A);
    budgetCfg = true; maxFires = 2
}
inline expect() {
    /* task 1 and its child end with circularDependency; the Task {}s get S (or no task id
     * was left for the last run's tasks) */
    expected = budgetHit || (res[1] == E_CYC && res[2] == R_OK && res[3] == R_OK); assert(expected)
}
#include "../TaskWait.pml"
