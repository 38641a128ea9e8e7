/* task_behind_cycle_inner (TaskWait.pml): a FINDING, of the kind of finding 3 (README,
 * "Findings") -- rule 1 of `expire` lets the latest-armed waiter go first, and that may be a
 * Task {} that only waits behind the cycle. task_behind_cycle, and T's factory also starts an
 * unstructured Task {} that resolves S before it resolves T in its structured child: Task 1
 * resolves S; S's factory starts a Task {} (task 2) resolving S, then `try? await resolve(T)`;
 * T's factory starts a Task {} (task 3) resolving S, then resolves T in a structured child
 * (task 4) and awaits it. Task 4's wait for T's frame is the real cycle. Task 3 waits inside T's
 * frame, which it inherited, as a structured child of T resolving S would (and that one would
 * be in a cycle). If task 3 started waiting after task 4, task 4's deadline defers to task 3's,
 * and task 3 gets circularDependency for S, which is on no cycle; S is built right after.
 * Expected to fail P1. */
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
