/* task_async_let (TaskWait.pml, scenario 1): `async let` with no cycle. Task 1 resolves the
 * singleton App, whose factory starts a structured child (task 3) that resolves the singleton
 * Database (which needs the singleton Config), resolves Config itself, then awaits the child.
 * Task 2, top-level, resolves Database too. Any of them may build Config or Database while the
 * others wait for it (the child inherits App's frame). No error may occur.
 * With -DRACY_CLAIM (a claim that is not one step with the empty check) this must fail P3. */
#define NT   3
#define NTOP 2
#define APP  0
#define DB   1
#define CFG  2
#include "../TaskWait.h"

inline configure() {
    LIFETIME(APP, SHARED); LIFETIME(DB, SHARED); LIFETIME(CFG, SHARED);
    STEPS(APP, 2); STEP(APP, 0, SPAWN_S, DB); STEP(APP, 1, DEP, CFG);
    STEPS(DB, 1);  STEP(DB, 0, DEP, CFG);
    TOP(1, APP); TOP(2, DB)
}
inline expect() {
    expected = (res[1] == R_OK && res[2] == R_OK && res[3] == R_OK && deadlineHit == 0); assert(expected)
}
#include "../TaskWait.pml"
