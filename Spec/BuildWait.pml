/*
 * BuildWait.pml -- SPIN model of WeaveDI's build/wait protocol: shared instances (singleton,
 * weak, scoped) built once while other threads wait, the InjectedValues defaults and the
 * one-time auto-registration run -- all edges of the one wait-for graph of the process.
 *
 * This file is the protocol. A configuration (Spec/configs/*.pml) names the instances, their
 * dependencies, what each thread resolves and which event may happen, then #includes this
 * file. Run everything with `bash Spec/check.sh`; see Spec/README.md.
 *
 * Threads T1..T3 (ids 1..NT; 0 = none). Cells c = instance + generation*MAXI (generation 0 or
 * 1: a reset or scope end gives the instance one new generation). Tickets 1..MAXT-1, one per
 * build attempt, never reused (0 = none). The WordLock critical sections are atomic steps (they
 * never block and touch only cell fields); the coordinator mutex M is an explicit lock.
 *
 * ---------------------------------------------------------------------------------------------
 * Model element                             Swift code it stands for
 * ---------------------------------------------------------------------------------------------
 * proctype Thread, label CALL               Container.resolveShared, entry: the key already on
 *                                           this thread's ResolutionStack -> a same-thread
 *                                           cycle (DIError.circularDependency); then `cell()`
 *                                           (the registry slot's storage, or resolveScoped's
 *                                           closure: the scope instance's current cell)
 * label OWNMARK                             Container.ownCycle: under M, the builds this thread
 *                                           runs from the frame of the key up (its
 *                                           ResolutionStack.openBuilds on the cycle) are marked
 *                                           (BuildTicket.provenCycle: kprov)
 * label LOOP (one atomic step = WordLock)   Container.resolveShared's `while true` under the
 *                                           slot lock: cached value -> return it; storage
 *                                           abandoned -> ask `cell()` again; no ticket -> this
 *                                           thread builds; else wait for `storage.ticket`
 * new ticket k with gate[k] = 1             BuildTicket(job:owner: me): its gate (BuildGate) is
 *                                           locked by the owner before the ticket is published
 *                                           (priority donation to the owner)
 * built/value/ticket/abandoned[c]           InstanceStorage: cached(as:) / store, `ticket`,
 *                                           `isAbandoned`; guarded by the WordLock (the scope
 *                                           instance's lock for scoped cells)
 * M, lockM / unlockM                        BuildCoordinator's `mutex` (Locked<[thread: ticket]>)
 * waits[t], waiters[k], finished[k]         BuildCoordinator's `waits` dictionary,
 *                                           BuildTicket.waiters, BuildTicket.finished
 * label WAIT .. WOKEN                       BuildCoordinator.wait(for:waiter:waiterPath:): under
 *                                           M, finished -> return (look again); walk the chain
 *                                           owner -> waits[owner].owner -> ...; back at the
 *                                           waiter -> throw circularDependency; else insert
 *                                           waits[t] = k, k.waiters += t; then
 *                                           ticket.blockUntilReleased() (gate lock + unlock) and
 *                                           the debug assertion "my edge is gone" under M; a
 *                                           report marks the builds on the chain (cycleError)
 *                                           and the waiter's own builds above the chain's last
 *                                           (`ownBuilds`); a ticket that finished with a
 *                                           failure (kfail) throws it instead of looking again
 * label BUILD / NEXTDEP                     resolveShared's runFactoryFrame: push the frame, the
 *                                           factory's nested resolves (the instance's
 *                                           dependency list, in order), pop
 * label COMPLETE                            resolveShared after the factory (returned or threw):
 *                                           BuildCoordinator.finish(_:_:) -- under M: `change`
 *                                           (under the WordLock: store unless abandoned, clear
 *                                           the ticket), k.finished = true, a failed build on a
 *                                           proven cycle keeps it as its failure (kfail), remove
 *                                           every waiter's edge; then BuildTicket.releaseGate()
 * proctype Reset                            Container.reset() / re-registration: the instance's
 *                                           current cell is replaced by a fresh one; the old one
 *                                           lives on for whoever already holds it
 * proctype ScopeEnd                         ScopeInstance.end(): its cells are marked abandoned
 *                                           (under its lock); the next resolution gets a new
 *                                           scope instance, hence a fresh cell
 * instances R and D of                      Container.runAutoRegistration (registerAllServices,
 *   configs/defaults_autoreg.pml            owned by the running thread) and
 *                                           InjectedDefaults.slowBox (a default computed once
 *                                           per key): the same BuildTicket + wait(for:) +
 *                                           finish construct, so simply more cells of the graph
 * -DASYNC                                  the same protocol run by tasks (async factories,
 *                                           Container.resolveSharedAsync and
 *                                           BuildCoordinator.waitAsync): a waiter suspends on a
 *                                           continuation instead of blocking on a gate;
 *                                           `finish` resumes every waiter it removes, under M
 *                                           (resumedBy = FINISH); proctype Cancel is a task's
 *                                           cancellation handler: under M, a waiter still
 *                                           registered loses its edge and is resumed with
 *                                           CancellationError (resumedBy = CANCEL); a waiter
 *                                           cancelled before it registers sees `cancelled`
 *                                           under M and does not wait (Task.isCancelled is
 *                                           checked inside the continuation's critical section)
 * -DASYNC -DCANCEL_KEEPS_EDGE               a faulty cancellation handler that resumes the
 *                                           waiter but leaves its edge and its place among the
 *                                           ticket's waiters: `finish` resumes it a second time.
 *                                           Must violate P4 on configs/async_cancel_waiter.pml.
 * -DSTALE_EDGES                             the old, faulty protocol: finish() removes no edges;
 *                                           each waiter removes its own edge after it wakes
 *                                           (BuildCoordinator.waitForBuilder before the fix).
 *                                           Must violate P1 on configs/handoff.pml.
 * -DOWN_CYCLE_UNMARKED                       a same-thread cycle marks nothing (the code before
 *                                           `Container.ownCycle`): a build that fails on a cycle
 *                                           its own thread proved lets its waiters look again and
 *                                           build it (a factory that starts a thread resolving
 *                                           back started one more per retry). Must violate P7 on
 *                                           configs/cycle_own.pml.
 * -DNO_CYCLE_CHECK                          a wait that never reports a cycle (always inserts
 *                                           the edge and blocks). Must violate P2 (deadlock) on
 *                                           configs/cycle2.pml: the deadlock check has teeth.
 * ---------------------------------------------------------------------------------------------
 *
 * Properties (safety properties; pan is compiled with -DSAFETY):
 *   P1  No false cycle.  (a) Invariant I1, checked in every reachable state (proctype
 *       Monitor): waits[u] == k implies !finished[k].  (b) At every cross-thread report: every
 *       edge the chain walk followed is live (`liveChain`), the ticket waited for is still the
 *       cell's ticket and open, and the instance lies on a cycle of the declared dependency
 *       graph (`onCycle`); at a same-thread report, `onCycle`.  (c) At the end (init): without
 *       a dependency cycle or a failing factory, every resolution succeeded.
 *   P2  No deadlock: SPIN's invalid-end-state check (every Thread ends; init sees all done).
 *       With a dependency cycle, at least one thread reported it (`cycles > 0` at the end).
 *   P3  One build per cell generation: a value is stored at most once per cell (`!built[c]`
 *       at the store, builds[c] <= 1); a factory runs at most once per cell unless a build of
 *       that cell failed (a retry); every thread that returns a value for cell c returns the
 *       same build (got[c]) -- also for an abandoned cell, whose builder alone gets its
 *       (unstored) instance. (When the scope instance ended with `end(reason:)` and that
 *       instance is AsyncDisposable, the builder disposes it and fails with scopeEnded instead:
 *       a step after `finish`, on the builder's own path, which changes no wait and so is not
 *       modelled here.)
 *   P4  (ASYNC) Every suspended wait is resumed exactly once -- by `finish` or by its
 *       cancellation, never both (`resumes[t] == 1` at each resume) -- and no waiter stays
 *       suspended (P2). A cancelled waiter fails; the build goes on for the others (P1 (c)
 *       then allows failures only in a configuration that cancels).
 *   P7  Own cycles handed on. A build that fails on a cycle its owner thread proved on its own
 *       stack (CALL) keeps that cycle as its failure (`ownHanded`, at COMPLETE), so its waiters
 *       get it instead of building again, as for a build a refused wait proved a cycle through.
 *       A waiter handed a failure is on a real cycle (P1: `onCycle` at the hand-off).
 *   Also: the edge is gone when a waiter wakes (the owner removed it), the chain walk never
 *   loops, the bounded tables never overflow, and M is released only by its holder.
 */

#ifndef NT
#error "include a configuration (Spec/configs/*.pml), which defines NT and configure()"
#endif

#include "BuildWait.h"

/* ---- configuration (written once by configure(), before any thread runs) ---------------- */
byte ndeps[MAXI];
byte deps[MAXI * MAXDEPS];        /* deps[i*MAXDEPS + j]: j-th dependency of instance i        */
byte njobs[MAXNT];
byte jobs[MAXNT * MAXJOBS];       /* jobs[t*MAXJOBS + j]: j-th top-level resolve of thread t   */
bool failOnce[MAXI];              /* the factory throws the first time it runs                */
bool reach[MAXI * MAXI];          /* transitive closure of deps                                */
bool failCfg;                     /* some factory may fail (retries are expected)              */
bool cycleCfg;                    /* the dependency graph has a cycle                          */

/* ---- cells (guarded by the cell's WordLock: atomic steps) --------------------------------- */
byte cur[MAXI];                   /* the instance's current cell (registry slot / scope inst.)  */
bool built[NCELLS];
byte value[NCELLS];               /* the build stored: the id of the ticket that built it      */
byte ticket[NCELLS];              /* the in-progress build, 0 = none (`cell.builder`)          */
bool abandoned[NCELLS];

/* ---- tickets (BuildTicket) ----------------------------------------------------------------- */
byte nextTicket = 1;
byte owner[MAXT];
bool finished[MAXT];              /* guarded by M                                              */
bool gate[MAXT];                  /* held by the owner from creation until finish              */
byte waiters[MAXT];               /* bit set of waiting threads, guarded by M                  */
bool kprov[MAXT];                 /* ticket.provenCycle != nil: a refused wait's chain ran     */
                                  /* through it, or its owner's own stack proved the cycle     */
bool kfail[MAXT];                 /* ticket.failure: the build failed on its proven cycle      */
bool kownc[MAXT];                 /* ghost: on a cycle its owner's own stack proved (CALL)     */
bool ownHanded;                   /* P7, at COMPLETE                                           */

/* ---- BuildCoordinator (guarded by M) ------------------------------------------------------- */
byte M;                           /* holder of the coordinator mutex, 0 = free                 */
byte waits[MAXNT];                /* the wait-for graph: ticket thread t waits on, 0 = none    */

/* ---- bookkeeping for the properties -------------------------------------------------------- */
byte builds[NCELLS];              /* values stored                                             */
byte runs[NCELLS];                /* factory runs                                              */
byte got[NCELLS];                 /* the build every returner saw                              */
bool failedRun[NCELLS];           /* a build of this cell failed (a retry is expected)          */
bool failedYet[MAXI];
byte cycles;                      /* cycle reports (same- or cross-thread)                     */
byte failures;                    /* top-level resolutions that failed                         */
byte done;                        /* threads finished                                          */

#ifdef ASYNC
#define FINISH 1
#define CANCEL 2
bool cancelled[MAXNT];            /* Task.isCancelled of each task                              */
byte resumedBy[MAXNT];            /* who resumed the current wait's continuation, 0 = nobody   */
byte resumes[MAXNT];              /* resumptions of the current wait (P4: exactly one)          */
#endif
bool cancelCfg;                   /* some task may be cancelled                                */

inline lockM(t)   { atomic { M == 0 -> M = t } }
inline unlockM(t) { assert(M == t); M = 0 }

#define onCycle(i)  reach[(i)*MAXI + (i)]

/* I1 for one thread (ids 1..3; waits[] of an absent thread stays 0). */
#define liveEdge(u) (waits[u] == 0 || !finished[waits[u]])
#define I1          (liveEdge(1) && liveEdge(2) && liveEdge(3))

proctype Thread(byte t)
{
    byte sp;                      /* depth of t's resolution stack                              */
    byte fc[MAXD];                /* frame: the cell being built                               */
    byte fk[MAXD];                /* frame: its ticket                                         */
    byte fnext[MAXD];                /* frame: the next dependency to resolve                     */
    byte job, inst, c, k, u, i, r, oc, x;
    bool ok, hit, liveChain, above;

NEXTJOB:
    if
    :: job < njobs[t] -> inst = jobs[t*MAXJOBS + job]; job++; goto CALL
    :: else -> goto FINISHED
    fi;

CALL:   /* resolve(t, inst) -- Container.resolveShared */
    /* 1. same-thread cycle: the key is on t's own resolution stack */
    atomic {
        hit = false; i = 0;
        do
        :: i < sp ->
            if :: cellInst(fc[i]) == inst -> hit = true; oc = i :: else -> skip fi;
            i++
        :: else -> break
        od;
        i = 0
    }
    if
    :: hit ->
        assert(onCycle(inst));                     /* P1: a real dependency cycle              */
        d_step { cycles++; hit = false; ok = false };
        goto OWNMARK
    :: else -> skip
    fi;
    c = cur[inst];                                 /* the cell: registry slot / scope instance */

LOOP:   /* 2. under the cell's WordLock */
    atomic {
        if
        :: built[c] -> r = value[c]; goto RETVAL   /* built: return the instance            */
        :: !built[c] && abandoned[c] ->            /* its scope instance ended: ask `cell()` */
            c = cur[cellInst(c)]; goto LOOP        /* for the current storage and look again */
        :: !built[c] && !abandoned[c] && ticket[c] == 0 ->   /* empty: this thread builds   */
            assert(nextTicket < MAXT);
            k = nextTicket; nextTicket++;
            owner[k] = t; gate[k] = 1;             /* the gate is taken before publishing    */
            ticket[c] = k;
            goto BUILD
        :: else -> k = ticket[c]                   /* building: wait for the ticket          */
        fi
    };

WAIT:   /* BuildCoordinator.wait(for: k) */
    lockM(t);
    atomic {
        if
        :: finished[k] && kfail[k] ->              /* failed on a proven cycle: throw it     */
            assert(onCycle(cellInst(c)));          /* P1: handed only along a real cycle     */
            unlockM(t); k = 0; ok = false; goto RET
        :: finished[k] && !kfail[k] -> unlockM(t); k = 0; goto LOOP   /* look again          */
#ifdef ASYNC
        :: !finished[k] && cancelled[t] ->         /* cancelled before waiting: throw now    */
            unlockM(t); k = 0; ok = false; goto RET
#endif
        :: else -> skip
        fi;
        /* follow the chain of owners */
        u = owner[k]; i = 0; liveChain = true;
        do
        :: u != t && waits[u] != 0 ->
            liveChain = liveChain && !finished[waits[u]];
            u = owner[waits[u]]; i++;
            assert(i < MAXNT)                      /* the chain never loops                  */
        :: else -> break
        od;
        if
#ifndef NO_CYCLE_CHECK
        :: u == t ->                               /* report DIError.circularDependency      */
#else
        :: false ->                                /* teeth for P2: never report, just wait  */
#endif
            /* P1 (b): every edge followed is live, the ticket is the cell's build, and the
             * instance is on a real cycle of the dependency graph. */
            assert(liveChain);
            assert(ticket[c] == k && !finished[k]);
            assert(onCycle(cellInst(c)));
            cycles++; ok = false;
            /* cycleError: each build on the chain is marked; `ownBuilds`: so are this thread's
             * own builds above the one the chain came back to (x) */
            x = k; kprov[k] = true; u = owner[k];
            do
            :: u != t -> x = waits[u]; kprov[x] = true; u = owner[x]
            :: else -> break
            od;
            above = false; i = 0;
            do
            :: i < sp -> if :: above -> kprov[fk[i]] = true :: else -> skip fi;
                above = above || fk[i] == x; i++
            :: else -> break
            od;
            unlockM(t); u = 0; i = 0; k = 0; x = 0; liveChain = false; above = false;
            goto RET
        :: else ->                                 /* insert the edge t -> k                 */
            waits[t] = k; waiters[k] = waiters[k] | (1 << t);
#ifdef ASYNC
            resumedBy[t] = 0; resumes[t] = 0;      /* the continuation, registered under M   */
#endif
            unlockM(t); u = 0; i = 0; liveChain = false
        fi
    };
#ifdef ASYNC
    resumedBy[t] != 0;                             /* suspended until resumed                */
    if
    :: resumedBy[t] == CANCEL ->                   /* CancellationError: the resolution fails */
        d_step { assert(waits[t] != k); k = 0; ok = false };
        goto RET
    :: else -> skip
    fi;
#else
    gate[k] == 0;                                  /* blockUntilReleased: acquire + release  */
#endif
    lockM(t);
    atomic {
#ifdef STALE_EDGES
        if                                         /* the old protocol: remove my own edge   */
        :: waits[t] == k -> waits[t] = 0
        :: else -> skip
        fi;
#else
        assert(waits[t] != k);                     /* the owner already removed it           */
#endif
        unlockM(t)
    };

WOKEN:  /* wait(for:) returned: a failure written under M before the gate opened is thrown;
         * otherwise look at the cell again (LOOP re-checks `abandoned`) */
    if
    :: kfail[k] ->
        d_step { assert(onCycle(cellInst(c))); k = 0; ok = false };   /* P1 */
        goto RET
    :: else -> k = 0; goto LOOP
    fi;

OWNMARK: /* Container.ownCycle: markProvenCycle(error, on: the open builds of frames oc..top) */
    lockM(t);
    d_step {
        i = oc;
        do
        :: i < sp ->
            kownc[fk[i]] = true;
#ifndef OWN_CYCLE_UNMARKED
            kprov[fk[i]] = true;
#endif
            i++
        :: else -> break
        od;
        i = 0; oc = 0;
        unlockM(t)
    };
    goto RET;

BUILD:  /* runFactory: push, resolve the dependencies, pop */
    atomic {
        assert(sp < MAXD);
        assert(runs[c] == 0 || failedRun[c]);     /* P3: one factory run per cell (retry:  */
                                                   /* only after a failed one)              */
        runs[c]++;
        fc[sp] = c; fk[sp] = k; fnext[sp] = 0; sp++;
        c = 0; k = 0; inst = 0
    };
NEXTDEP:
    atomic {
        if
        :: fnext[sp-1] < ndeps[cellInst(fc[sp-1])] ->
            inst = deps[cellInst(fc[sp-1])*MAXDEPS + fnext[sp-1]];
            fnext[sp-1]++;
            goto CALL
        :: else -> ok = true                       /* every dependency resolved              */
        fi
    };

COMPLETE:   /* the factory returned (ok) or threw (!ok); BuildCoordinator.finish */
    atomic {
        sp--; c = fc[sp]; k = fk[sp]; fc[sp] = 0; fk[sp] = 0; fnext[sp] = 0;
        if
        :: ok && failOnce[cellInst(c)] && !failedYet[cellInst(c)] ->
            failedYet[cellInst(c)] = true; ok = false     /* the factory throws              */
        :: else -> skip
        fi
    };
    lockM(t);
    atomic {
        /* `change`, under the cell's WordLock */
        if
        :: ok && !abandoned[c] ->
            assert(!built[c]);                     /* P3: never overwritten                  */
            built[c] = true; value[c] = k; builds[c]++;
            assert(builds[c] <= 1)
        :: else -> skip
        fi;
        failedRun[c] = failedRun[c] || !ok;
        ticket[c] = 0;
        /* finish: mark finished and remove every waiter's edge, under M */
        finished[k] = true;
        /* a build on a proven cycle fails because of it: its waiters get the cycle */
        kfail[k] = !ok && kprov[k];
        ownHanded = (ok || !kownc[k] || kfail[k]); assert(ownHanded);              /* P7 */
#ifndef STALE_EDGES
        i = 1;
        do
        :: i < MAXNT ->
            if
            :: waiters[k] & (1 << i) -> assert(waits[i] == k); waits[i] = 0
#ifdef ASYNC
                ; resumedBy[i] = FINISH; resumes[i]++; assert(resumes[i] == 1)   /* P4 */
#endif
            :: else -> skip
            fi;
            i++
        :: else -> break
        od;
        i = 0;
#endif
        waiters[k] = 0;
        unlockM(t)
    };
    gate[k] = 0;                                   /* releaseGate: the waiters run            */
    if
    :: ok -> r = k; goto RETVAL
    :: else -> k = 0; goto RET
    fi;

RETVAL: /* resolve returns build r of cell c */
    atomic {
        if
        :: got[c] == 0 -> got[c] = r
        :: else -> assert(got[c] == r)             /* P3: everyone sees the same build       */
        fi;
        ok = true; r = 0; c = 0; k = 0
    };

RET:    /* return to the caller: the top level, or the factory that asked */
    if
    :: sp == 0 ->
        d_step { if :: !ok -> failures++ :: else -> skip fi; ok = false; inst = 0; c = 0 };
        goto NEXTJOB
    :: sp > 0 && ok -> goto NEXTDEP
    :: sp > 0 && !ok -> goto COMPLETE                  /* the error propagates: factory throws */
    fi;

FINISHED:
    done++
}

/* Container.reset() / re-registration: the instance gets a fresh cell (next generation). */
proctype Reset(byte in)
{
    atomic { cur[in] = in + MAXI }
}

/* ScopeInstance.end(): the current cell is abandoned and the instance gets a fresh one. */
proctype ScopeEnd(byte in)
{
    atomic { abandoned[cur[in]] = true; cur[in] = in + MAXI }
}

#ifdef ASYNC
/* A task's cancellation: Task.isCancelled becomes true, then the cancellation handler of
 * BuildCoordinator.waitAsync runs under M: a registered waiter loses its edge and its place
 * among the ticket's waiters and is resumed with CancellationError. (Holder id 7: not a task.) */
proctype Cancel(byte w)
{
    byte k2;
    cancelled[w] = true;
    lockM(7);
    atomic {
        if
        :: waits[w] != 0 ->
            k2 = waits[w];
#ifndef CANCEL_KEEPS_EDGE
            waiters[k2] = waiters[k2] & ~(1 << w); waits[w] = 0;
#endif
            resumedBy[w] = CANCEL; resumes[w]++; assert(resumes[w] == 1)   /* P4 */
        :: else -> skip
        fi;
        k2 = 0;
        unlockM(7)
    }
}
#endif

/* I1, checked in every reachable state (not for the faulty protocol, which breaks it by
 * design: there the report-time assertions must catch the false cycle). */
#ifndef STALE_EDGES
active proctype Monitor()
{
end:
    atomic { !I1 -> assert(I1) }
}
#endif

init
{
    byte a, b, x;
    d_step {
        configure();
        /* reach = transitive closure of deps (Warshall) */
        a = 0;
        do
        :: a < MAXI ->
            b = 0;
            do
            :: b < ndeps[a] -> reach[a*MAXI + deps[a*MAXDEPS + b]] = true; b++
            :: else -> break
            od;
            a++
        :: else -> break
        od;
        x = 0;
        do
        :: x < MAXI ->
            a = 0;
            do
            :: a < MAXI ->
                b = 0;
                do
                :: b < MAXI ->
                    reach[a*MAXI + b] = reach[a*MAXI + b] || (reach[a*MAXI + x] && reach[x*MAXI + b]);
                    b++
                :: else -> break
                od;
                a++
            :: else -> break
            od;
            x++
        :: else -> break
        od;
        a = 0;
        do
        :: a < MAXI -> cycleCfg = cycleCfg || onCycle(a); failCfg = failCfg || failOnce[a]; a++
        :: else -> break
        od;
        a = 0; b = 0; x = 0
    };
    atomic {
        a = 1;
        do
        :: a <= NT -> run Thread(a); a++
        :: else -> break
        od;
        a = 0;
        EVENTS
    };
    done == NT;                                    /* P2: every resolution terminates         */
    /* P1: without a dependency cycle or a failing factory, every resolution succeeded */
    assert(cycleCfg || failCfg || cancelCfg || failures == 0);
    /* P2: a real cycle is reported by at least one thread, never waited on */
    assert(!cycleCfg || cycles > 0)
}
