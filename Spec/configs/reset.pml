/* reset: Container.reset() / re-registration of S at any moment, in particular while S is
 * being built and waited for. S -> X; T1 resolves S, T2 resolves X then S, T3 resolves S.
 * The build in progress stores into the old cell; its waiters read it; later resolutions use
 * the new cell (built once too). No cycle. */
#define NT 3
#define S 0
#define X 1
#define EVENTS run Reset(S)
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, X);
    njobs[1] = 1; JOB(1, 0, S);
    njobs[2] = 2; JOB(2, 0, X); JOB(2, 1, S);
    njobs[3] = 1; JOB(3, 0, S);
    cur[S] = S; cur[X] = X
}
#include "../BuildWait.pml"
