/* task_behind_chain (TaskWait.pml): a wait behind a cycle further along its chain (finding 7,
 * addressed). Task 1 resolves the singleton S, whose factory starts an unstructured Task {} that
 * resolves S, then resolves the singleton X. Task 2 resolves X, whose factory does
 * `try? await resolve(T)`; the transient T's factory resolves T in a structured child and awaits
 * it (a real cycle, ended by the child's deadline; X is then built, and so is S). If task 2
 * builds X, the child inherits X's and T's frames but not S's. The Task {}'s wait for S is a
 * possible cycle; it is stuck while task 1 waits for X. When its deadline passes, the builds it
 * is stuck behind are S's (the chain up to the inherited frame) and X's (the build S's owner
 * waits for): the child waits deeper inside X's build, so the Task {} gives way, and gets S.
 * With -DCHAIN_ONLY (only the chain counts, the previous scope) this must fail P1: nobody waits
 * inside S's frame, and the Task {} gets circularDependency although S is built right after. */
#define NT   4
#define NTOP 2
#define S    0
#define X    1
#define T    2
#include "../TaskWait.h"

inline configure() {
    LIFETIME(S, SHARED); LIFETIME(X, SHARED); LIFETIME(T, TRANSIENT);
    STEPS(S, 2); STEP(S, 0, SPAWN_U, S); STEP(S, 1, DEP, X);
    STEPS(X, 1); STEP(X, 0, TRY, T);
    STEPS(T, 1); STEP(T, 0, SPAWN_S, T);
    TOP(1, S); TOP(2, X)
}
inline expect() {
    /* the task that resolves T (the child) ends with circularDependency, every other succeeds */
    expected = ((job[3] == T && res[3] == E_CYC && res[4] == R_OK) ||
                (job[4] == T && res[4] == E_CYC && res[3] == R_OK)) && res[1] == R_OK && res[2] == R_OK;
    assert(expected)
}
#include "../TaskWait.pml"
