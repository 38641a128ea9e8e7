/* BuildWait.h -- bounds and table helpers shared by BuildWait.pml and the configurations
 * (a configuration includes this first, so its configure() can use them). */
#ifndef BUILDWAIT_H
#define BUILDWAIT_H

#ifndef EVENTS
#define EVENTS   skip       /* no reset / scope end in this configuration                       */
#endif

#define MAXNT    4          /* thread ids 1..3; 0 = none                                      */
#ifndef MAXI
#define MAXI     3          /* instances (registrations) 0..MAXI-1                             */
#endif
#define NCELLS   (2*MAXI)   /* cell c = instance + generation*MAXI; generation 0 or 1          */
#ifndef MAXT
#define MAXT     8          /* tickets 1..MAXT-1 (one per build attempt); 0 = none             */
#endif
#define MAXDEPS  2          /* dependencies per instance                                       */
#define MAXD     4          /* resolution-stack depth                                          */
#define MAXJOBS  3          /* top-level resolutions per thread                                */

#define cellInst(c)  ((c) % MAXI)

/* configuration helpers (for configure()) */
#define DEP(i, j, d)  deps[(i)*MAXDEPS + (j)] = (d)      /* j-th dependency of instance i is d */
#define JOB(t, j, i)  jobs[(t)*MAXJOBS + (j)] = (i)      /* thread t's j-th resolve is i       */

#endif
