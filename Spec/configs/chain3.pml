/* chain3: A -> B -> C, three threads starting at different points (T1: A, T2: B, T3: C),
 * so chains of waits T1 -> T2 -> T3 form and dissolve. No cycle may be reported. */
#define NT 3
#define A 0
#define B 1
#define C 2
#include "../BuildWait.h"

inline configure() {
    ndeps[A] = 1; DEP(A, 0, B);
    ndeps[B] = 1; DEP(B, 0, C);
    njobs[1] = 1; JOB(1, 0, A);
    njobs[2] = 1; JOB(2, 0, B);
    njobs[3] = 1; JOB(3, 0, C);
    cur[A] = A; cur[B] = B; cur[C] = C
}
#include "../BuildWait.pml"
