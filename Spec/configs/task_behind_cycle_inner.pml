/* task_behind_cycle_inner (TaskWait.pml): task_behind_cycle, and T's factory also starts an
 * unstructured Task {} that resolves S before it resolves T in its structured child (once a
 * FINDING, of the kind of finding 3; now passes). Task 1 resolves S; S's factory starts a
 * Task {} (task 2) resolving S, then `try? await resolve(T)`; T's factory starts a Task {}
 * (task 3) resolving S, then resolves T in a structured child (task 4) and awaits it. Task 4's
 * wait for T's frame is the real cycle. Task 3 waits inside T's frame, as a structured child of
 * T resolving S would. Tasks 3 and 4 both have T's frame innermost: siblings there, so task 4
 * does not give way to task 3 (it did under the previous rule, when task 3 had started waiting
 * later, and task 3 then got a false circularDependency for S). Tasks 2 and 3 wait for S's
 * build, inside which task 4 waits deeper (S's frame is not its innermost): they give way to it.
 * Task 4's deadline ends the cycle; S is built and tasks 2 and 3 get it. */
#define NT   4
#define NTOP 1
#define S    0
#define T    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED); LIFETIME(T, TRANSIENT);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, TRY, T);
    STEPS(T, 2); STEP(T, 0, SPAWN_U, S); STEP(T, 1, SPAWN_S, T);
    TOP(1, S)
}
inline expect() {
    expected = (res[1] == R_OK && res[2] == R_OK && res[3] == R_OK && res[4] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
