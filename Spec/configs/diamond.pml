/* diamond: A -> {B, C}, B -> C; T1 resolves A, T2 resolves B, T3 resolves C then A.
 * Several threads wait on the same ticket; hand-offs in both directions. No cycle. */
#define NT 3
#define A 0
#define B 1
#define C 2
#include "../BuildWait.h"

inline configure() {
    ndeps[A] = 2; DEP(A, 0, B); DEP(A, 1, C);
    ndeps[B] = 1; DEP(B, 0, C);
    njobs[1] = 1; JOB(1, 0, A);
    njobs[2] = 1; JOB(2, 0, B);
    njobs[3] = 2; JOB(3, 0, C); JOB(3, 1, A);
    cur[A] = A; cur[B] = B; cur[C] = C
}
#include "../BuildWait.pml"
