/* scope_end: ScopeInstance.end() for the scoped instance S at any moment, in particular while
 * S is being built with waiters. S -> X; T1 and T3 resolve S, T2 resolves X then S.
 * The builder finishes without storing; its waiters wake and restart on the new cell. */
#define NT 3
#define S 0
#define X 1
#define EVENTS run ScopeEnd(S)
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, X);
    njobs[1] = 1; JOB(1, 0, S);
    njobs[2] = 2; JOB(2, 0, X); JOB(2, 1, S);
    njobs[3] = 1; JOB(3, 0, S);
    cur[S] = S; cur[X] = X
}
#include "../BuildWait.pml"
