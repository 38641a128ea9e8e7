/* cycle_own: a real cycle A -> B -> A found on the builder's own stack while other threads wait
 * for its builds. T1 and T2 resolve A, T3 resolves B. Whichever thread builds A and then B meets
 * A again on its own stack (a same-thread cycle); a thread waiting for A or B at that moment gets
 * the cycle when the build fails (P7) instead of building again, and a thread that comes after
 * the failure builds afresh and meets the cycle itself. Nothing may hang.
 * With -DOWN_CYCLE_UNMARKED (the same-thread check marks nothing, as before) this must fail P7. */
#define NT 3
#define A 0
#define B 1
#include "../BuildWait.h"

inline configure() {
    ndeps[A] = 1; DEP(A, 0, B);
    ndeps[B] = 1; DEP(B, 0, A);
    njobs[1] = 1; JOB(1, 0, A);
    njobs[2] = 1; JOB(2, 0, A);
    njobs[3] = 1; JOB(3, 0, B);
    cur[A] = A; cur[B] = B
}
#include "../BuildWait.pml"
