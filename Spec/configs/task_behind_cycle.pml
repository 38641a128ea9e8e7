/* task_behind_cycle (TaskWait.pml): a FINDING -- the protocol gives a false circularDependency.
 * Task 1 resolves the singleton S. S's factory starts an unstructured Task {} (task 2) that
 * resolves S, then calls `try? await resolve(T)` and goes on whatever that gives. The transient
 * T's factory resolves T in a structured child (task 3) and awaits it: a real cycle, broken by
 * task 3's deadline; S is then built and task 2 should get it. But task 2's wait for S is a
 * possible cycle too (S's frame is inherited), and it is stuck for as long as task 1 is stuck in
 * T: if task 2's deadline passes first, the walk from S's ticket still reaches S's frame, and
 * task 2 gets circularDependency although it is in no cycle and S gets built.
 * Expected to fail P1 (see README, "Findings"). */
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
