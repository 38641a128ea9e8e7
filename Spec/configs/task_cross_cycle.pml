/* task_cross_cycle (TaskWait.pml, scenario 6): a cycle A -> B -> A between two tasks' own
 * frames. Task 1 resolves A, task 2 resolves B. The cycle is proven and reported at once (no
 * wait may be a possible one, so no deadline is used); both tasks end with circularDependency. */
#define NT   2
#define NTOP 2
#define A    0
#define B    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(A, 1); STEP(A, 0, DEP, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A); TOP(2, B);
    atOnceCfg = true
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC && deadlineHit == 0); assert(expected)
}
#include "../TaskWait.pml"
