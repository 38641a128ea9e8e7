/* cycle2: a real cycle A -> B -> A. T1 resolves A, T2 resolves B. The cycle must be reported
 * (same-thread or cross-thread, by at least one thread); nothing may hang. */
#define NT 2
#define A 0
#define B 1
#include "../BuildWait.h"

inline configure() {
    ndeps[A] = 1; DEP(A, 0, B);
    ndeps[B] = 1; DEP(B, 0, A);
    njobs[1] = 1; JOB(1, 0, A);
    njobs[2] = 1; JOB(2, 0, B);
    cur[A] = A; cur[B] = B
}
#include "../BuildWait.pml"
