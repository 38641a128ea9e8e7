/* task_unstructured_self (TaskWait.pml, scenario 3): the singleton S's factory starts an
 * unstructured Task {} (task 2) that resolves S, then resolves the singleton X; it never awaits
 * the task. Task 2's wait for S is a possible cycle (S's frame is inherited), but S's factory
 * returns and task 2 gets S. No error may occur.
 * With -DINHERITED_DEFINITE (the inherited frame counted as task 2's own) this must fail P1. */
#define NT   2
#define NTOP 1
#define S    0
#define X    1
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED); LIFETIME(X, SHARED);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, DEP, X);
    TOP(1, S)
}
inline expect() {
    expected = (res[1] == R_OK && res[2] == R_OK && deadlineHit == 0); assert(expected)
}
#include "../TaskWait.pml"
