/* task_transient_child (TaskWait.pml, scenario 5): the transient T's factory resolves T in a
 * structured child (task 2) and awaits it. The child waits for the frame of T to close, which
 * cannot happen: at the deadline it gets circularDependency, and so does task 1.
 * With -DNO_DEADLINE this must fail P2 (a hang). */
#define NT   2
#define NTOP 1
#define T    0
#include "../TaskWait.h"

inline configure() {
    LIFETIME(T, TRANSIENT);
    STEPS(T, 1); STEP(T, 0, SPAWN_S, T);
    TOP(1, T)
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC); assert(expected)
}
#include "../TaskWait.pml"
