/* TaskWait.h -- bounds, constants and configuration helpers shared by TaskWait.pml and its
 * configurations (a configuration includes this first, so its configure() can use them). */
#ifndef TASKWAIT_H
#define TASKWAIT_H

#if defined(CANCELS) && !defined(EVENTS)
#define EVENTS   run Cancel(CANCELS)  /* by hand: -DCANCELS=n cancels task n at any moment     */
#endif
#ifndef EVENTS
#define EVENTS   skip       /* no cancellation in this configuration                           */
#endif

#ifndef MAXNT
#define MAXNT    6          /* task ids 1..MAXNT-1 (at most 7: bit masks); 0 = none             */
#endif
#ifndef MAXI
#define MAXI     3          /* registrations 0..MAXI-1                                          */
#endif
#define MAXS     2          /* steps of a factory                                               */
#define MAXT     8          /* tickets 1..7 (builds and close tickets); 0 = none; bit masks     */
#define MAXF     15         /* frames 1..14 (factory runs), never reused; 0 = none; bit masks   */
#define MAXD     3          /* frames a task pushes itself (own resolution depth)               */
#define MAXP     8          /* names on a waiter's resolution path (SuspendedWait.path)          */
#ifndef MAXDEFER
#define MAXDEFER 2          /* BuildCoordinator.maximumDeferrals (8 in Swift; see README)       */
#endif

/* lifetimes */
#define SHARED     1        /* singleton: built once, others wait for its ticket                */
#define TRANSIENT  2        /* a factory run per resolution, no ticket of its own               */

/* factory steps */
#define DEP      1          /* try await resolve(j)                                             */
#define TRY      2          /* try? await resolve(j): the factory catches the failure, goes on  */
#define SPAWN_S  3          /* a structured child (async let / task group) resolves j; the      */
                            /* factory awaits it before it returns                              */
#define SPAWN_U  4          /* an unstructured Task { resolve(j) }, never awaited               */
#define FAIL     5          /* the factory throws an error of its own (not a cycle) in its      */
                            /* first j runs (runs of the registration, counted from 1)          */
#define AWAIT_U  6          /* try await handle.value: awaits the Task {}s that j's factory      */
                            /* started (their handles came back in j's value); rethrows        */

/* what a finished task's resolution gave (res[t]); an error travelling up (err) */
#define R_OK     1
#define E_CYC    2          /* DIError.circularDependency                                       */
#define E_CANC   3          /* CancellationError                                                */
#define E_FAIL   4          /* DIError.factoryFailed: a factory's own error                     */

/* who resumed a suspended wait (resumedBy[t]) */
#define RB_OK       1       /* finish: the job is done (or failed, not on a proven cycle)       */
#define RB_CYC      2       /* finish: the build failed on a proven cycle: throw it             */
#define RB_CANCEL   3       /* the waiter's cancellation handler                                */
#define RB_DEADLINE 4       /* the deadline passed and the wait still closes a cycle            */

/* the walk (BuildCoordinator.Graph.closure), and what waitAsync makes of it */
#define W_NONE       0
#define W_POSSIBLE   1
#define W_PROVEN     2
#define W_REMEMBERED 3      /* possible, with a signature a registration remembers: reported    */
                            /* at once; marks the chain possibleCycle only (not provenCycle)   */

#define CANCELLER  7        /* holder id of M for a cancellation (not a task)                    */

/* configuration helpers (for configure()) */
#define LIFETIME(i, l)     lifetime[i] = l
#define STEP(i, s, op, j)  sop[(i)*MAXS + (s)] = op; sarg[(i)*MAXS + (s)] = j
#define STEPS(i, n)        nsteps[i] = n
#define TOP(t, i)          job[t] = i                 /* top-level task t resolves i              */

#endif
