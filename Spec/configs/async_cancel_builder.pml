/* async_cancel_builder (-DASYNC): task 1 resolves S, which depends on X; task 2 resolves X; task
 * 3 resolves S. Task 1 is cancelled at any moment: if it is building S and waiting for X, S's
 * factory fails (CancellationError), nothing is stored, and task 3 builds S itself (a retry). */
#define NT 3
#define S 0
#define X 1
#define EVENTS run Cancel(1)
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, X);
    njobs[1] = 1; JOB(1, 0, S);
    njobs[2] = 1; JOB(2, 0, X);
    njobs[3] = 1; JOB(3, 0, S);
    cur[S] = S; cur[X] = X;
    cancelCfg = true
}
#include "../BuildWait.pml"
