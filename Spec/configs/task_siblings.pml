/* task_siblings (TaskWait.pml, scenario 10): siblings in one frame. The singleton A's factory
 * resolves A in two structured children (a task group) and awaits them. Both children (tasks 2
 * and 3) inherit A's frame as their innermost frame and wait for A's ticket: possible cycles,
 * each with a deadline. Neither is deeper than the other, so neither gives way: each fails at
 * its first deadline (P6: maxFires 1), and so does task 1.
 * With -DDEFER_SIBLINGS (siblings give way to each other) this must fail P6: a child's deadline
 * gives way to its sibling's, and again, until the cap; it fails only at its third deadline. */
#define NT   3
#define NTOP 1
#define A    0
#include "../TaskWait.h"

inline configure() {
    LIFETIME(A, SHARED);
    STEPS(A, 2); STEP(A, 0, SPAWN_S, A); STEP(A, 1, SPAWN_S, A);
    TOP(1, A);
    maxFires = 1
}
inline expect() {
    expected = (res[1] == E_CYC && res[2] == E_CYC && res[3] == E_CYC && rearmHit == 0); assert(expected)
}
#include "../TaskWait.pml"
