/* task_handle_nested (TaskWait.pml): a FINDING (README, "Findings", 10) -- task_handle_cycle
 * with one more transient between: the singleton A's factory resolves the transient N, whose
 * factory resolves the transient B, whose factory starts `Task { try await resolve(A) }`
 * (task 2) and returns its handle; N returns it in its value; A's factory awaits it. Task 2's
 * binding holds B's frame, but nothing holds N's once N returned (parents are weak), so the
 * walk from B ends at the freed parent: A's open frame is lost, task 2 waits for A with no
 * inherited frame (no deadline) and A's factory waits for task 2: a hang.
 * Expected to fail P2 (invalid end state). */
#define NT   2
#define NTOP 1
#define A    0
#define N    1
#define B    2
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(N, TRANSIENT); LIFETIME(B, TRANSIENT);
    STEPS(A, 2); STEP(A, 0, DEP, N); STEP(A, 1, AWAIT_U, B);
    STEPS(N, 1); STEP(N, 0, DEP, B);
    STEPS(B, 1); STEP(B, 0, SPAWN_U, A);
    TOP(1, A)
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
