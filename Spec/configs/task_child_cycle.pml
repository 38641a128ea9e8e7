/* task_child_cycle (TaskWait.pml, scenario 2): a real cycle through a structured child. Task 1
 * resolves the singleton A, whose factory resolves the singleton B in a structured child and
 * awaits it; task 2 resolves B, whose factory resolves A. Either wait may come first, and task 2
 * may build A itself (then its own child resolves B). Both top-level tasks must end with
 * circularDependency; nothing may hang.
 * With -DINHERITED_NONBLOCKING or -DNO_DEADLINE this must fail P2 (a hang). */
#define NT   4
#define NTOP 2
#define A    0
#define B    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED); LIFETIME(B, SHARED);
    STEPS(A, 1); STEP(A, 0, SPAWN_S, B);
    STEPS(B, 1); STEP(B, 0, DEP, A);
    TOP(1, A); TOP(2, B)
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
