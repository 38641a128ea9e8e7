/* defaults_autoreg: the other two waits on the same graph, as cells.
 * R is the auto-registration run (Container.runAutoRegistration: a thread's first resolution
 * triggers it; the first thread runs registerAllServices, the others wait for it on its ticket).
 * D is an InjectedValues default computed once (InjectedDefaults.slowBox) whose computation
 * resolves the singleton X; the singleton S's factory reads D.
 * T1: R, then S.  T2: R, then X, then D.  No cycle. */
#define NT 2
#define MAXI 4
#define R 0
#define S 1
#define D 2
#define X 3
#include "../BuildWait.h"

inline configure() {
    ndeps[S] = 1; DEP(S, 0, D);
    ndeps[D] = 1; DEP(D, 0, X);
    njobs[1] = 2; JOB(1, 0, R); JOB(1, 1, S);
    njobs[2] = 3; JOB(2, 0, R); JOB(2, 1, X); JOB(2, 2, D);
    cur[R] = R; cur[S] = S; cur[D] = D; cur[X] = X
}
#include "../BuildWait.pml"
