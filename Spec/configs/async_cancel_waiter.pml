/* async_cancel_waiter (-DASYNC): tasks 1 and 3 resolve S, which depends on X; task 2 resolves X
 * and then S. Task 3 is cancelled at any moment: before it waits (it must not wait), while it
 * waits (it is resumed once, with CancellationError, and loses its edge), or after it returned.
 * The builds go on for the others: no false cycle, no deadlock, one build per cell.
 * With -DCANCEL_KEEPS_EDGE (a handler that leaves the edge) this must violate P4. */
#define NT 3
#define S 0
#define X 1
#define EVENTS run Cancel(3)
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, X);
    njobs[1] = 1; JOB(1, 0, S);
    njobs[2] = 2; JOB(2, 0, X); JOB(2, 1, S);
    njobs[3] = 1; JOB(3, 0, S);
    cur[S] = S; cur[X] = X;
    cancelCfg = true
}
#include "../BuildWait.pml"
