/* handoff: the hand-off that made the false cycle in the old protocol.
 * S depends on X. Thread 1 resolves S; thread 2 resolves X, then S.
 * Thread 1, building S, waits for X (built by thread 2); thread 2 finishes X and then asks
 * for S, which thread 1 is building. No cycle exists, so none may be reported.
 * With -DSTALE_EDGES (the old protocol) this configuration must fail P1. */
#define NT 2
#define S 0
#define X 1
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, X);
    njobs[1] = 1; JOB(1, 0, S);
    njobs[2] = 2; JOB(2, 0, X); JOB(2, 1, S);
    cur[S] = S; cur[X] = X
}
#include "../BuildWait.pml"
