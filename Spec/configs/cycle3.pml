/* cycle3: a real cycle A -> B -> C -> A, T1 resolves A, T2 resolves B, T3 resolves C: the
 * three-thread wait chain that would close the cycle must be reported, never waited on. */
#define NT 3
#define MAXT 10   /* every thread may build all three before the failures unwind */
#define A 0
#define B 1
#define C 2
#include "../BuildWait.h"

inline configure() {
    ndeps[A] = 1; DEP(A, 0, B);
    ndeps[B] = 1; DEP(B, 0, C);
    ndeps[C] = 1; DEP(C, 0, A);
    njobs[1] = 1; JOB(1, 0, A);
    njobs[2] = 1; JOB(2, 0, B);
    njobs[3] = 1; JOB(3, 0, C);
    cur[A] = A; cur[B] = B; cur[C] = C
}
#include "../BuildWait.pml"
