/* fail_retry: X's factory throws the first time. S -> X; T1 resolves S, T2 resolves X then S,
 * T3 resolves X. A waiter of the failed build finds no value and no ticket and becomes the new
 * builder (a retry); the failure propagates through S's factory on the failing thread. */
#define NT 3
#define S 0
#define X 1
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, X);
    failOnce[X] = true;
    njobs[1] = 1; JOB(1, 0, S);
    njobs[2] = 2; JOB(2, 0, X); JOB(2, 1, S);
    njobs[3] = 1; JOB(3, 0, X);
    cur[S] = S; cur[X] = X
}
#include "../BuildWait.pml"
