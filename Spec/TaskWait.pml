/*
 * TaskWait.pml -- SPIN model of WeaveDI's wait protocol for async factories run by tasks that
 * start child tasks: frames a task pushes itself (own) or inherits from the task that created
 * it, structured children (async let, task groups) that their factory awaits and unstructured
 * Task {}s that it never awaits -- which the library cannot tell apart -- and the one wait-for
 * graph in which a wait is a proven cycle (reported at once), a possible cycle (the task waits
 * with a deadline) or no cycle.
 *
 * This file is the protocol. A configuration (Spec/configs/task_*.pml) names the registrations,
 * what each factory does, what each top-level task resolves and which cancellation may happen,
 * then #includes this file. Run everything with `bash Spec/check.sh`; see Spec/README.md,
 * section "TaskWait.pml".
 *
 * Tasks have ids 1..NT: the top-level ones 1..NTOP, then the tasks factories start, in order.
 * Frames 1..MAXF-1 (one per factory run) and tickets 1..MAXT-1 are never reused (0 = none).
 * A WordLock critical section is one atomic step; the coordinator mutex M is an explicit lock.
 * Names (ResolutionFrame.displayName, BuildTicket.Job.displayName) are registration numbers.
 *
 * ---------------------------------------------------------------------------------------------
 * Model element                        Swift code it stands for
 * ---------------------------------------------------------------------------------------------
 * frame f: finst, fowner, fticket      AsyncFrame: its ResolutionFrame (key), taskID (the task
 *                                      that pushed it), the build's BuildTicket (ticket.frame)
 *                                      or, for a transient, its closeTicket
 * fpar[f]                              AsyncFrame.parent: the pushing task's top if open
 *                                      (openTop; held weakly, so a closed one reads as none)
 * openP (bit f)                        !AsyncFrame.isClosed
 * fs[] (own frames), itop[t]           the task-local AsyncResolutionPath.top: the task's own
 *                                      frames, above the frame it was started in (itop), which
 *                                      it inherited with the task-local
 * inline pathOf: mi, mf, wp[]          top?.openChain: open frames, skipping closed ones while
 *                                      alive (held, upFrom; parent is weak): the inherited frames
 *                                      (path.filter { !isOwn }), the innermost of them
 *                                      (inherited.first), the names outermost first (waiterPath)
 * label CALL                           resolveSharedAsync / checkTransientPath: checkOwnPath --
 *                                      the key on an own frame is a proven cycle, at once
 * label OWNMARK                        BuildCoordinator.markProvenCycle, under M: the builds of
 *                                      the own frames on that cycle are marked (their frames'
 *                                      provenCycle; here kprov of their tickets)
 * label LOOP (one atomic step)         SharedInstanceStep / InstanceStorage.nextStep under the
 *                                      slot lock: built -> value; building -> wait for the
 *                                      ticket; empty -> a ticket naming a new frame, build
 * label TSCAN                          checkTransientPath's loop: the key on an inherited frame
 *                                      of the open path -> ticketForClose (under M), wait for it
 * step AWAIT_U, label HWAIT            try await handle.value of the Task {}s a factory started
 *                                      (handles returned in its value); rethrows their error
 * label WAIT, inline closure           BuildCoordinator.waitAsync: finished -> look again (or
 *                                      throw ticket.failure); cancelled -> throw; the walk
 *                                      Graph.closure (the definite chain, which goes on past
 *                                      the first inherited frame; then every edge, depth
 *                                      first), its chain in wCh; proven -> circularDependency
 *                                      at once; possible with a signature (inline signature,
 *                                      cycleSignature) that a registration on the chain or a
 *                                      frame of the path remembers (failedOnPossibleCycle) ->
 *                                      the same, at once; else register (waits, inside,
 *                                      suspended) and suspend, with deadlines[waiter] recorded
 *                                      in that step when the cycle is possible
 * label MARK                           cycleError(_:on:), its own critical section: marks each
 *                                      ticket of the chain (kprov: provenCycle)
 * winh[t], wfirst[t], wreg[t]          SuspendedWait.inherited and Graph.inside: the waiter's
 *                                      inherited frames, the innermost of them, and its place
 *                                      in the inside lists (registration order)
 * dl[t], ddef[t]                       Graph.deadlines[t] and its Deadline.deferrals
 * dafter[t], fireM                     when the timers of armDeadline fire (see "The deadline")
 * deadline step at SUSP                the timer and BuildCoordinator.expire: still registered
 *                                      and the walk still closes a cycle -> if fewer than
 *                                      MAXDEFER deferrals and deeper (deeperPossibleCycle) the
 *                                      deadline is re-armed; else removeTaskWait, each ticket
 *                                      of the chain marked with the cycle's signature (kpos:
 *                                      possibleCycle), resume with circularDependency. No
 *                                      cycle: the deadline is dropped, the task waits on
 * inline deeper                        Graph.deeperPossibleCycle(behind:than:)
 * label PUSH .. NEXT                   runAsyncFactory: the factory runs with its frame on top;
 *                                      its steps (resolveAsync, async let, Task {}, a throw)
 * label COMPLETE                       the factory returned or threw: a throw cancels its live
 *                                      structured children; it awaits them; `defer
 *                                      frame.close()`; a transient's closeTicket is finished
 *                                      (BuildCoordinator.frameClosed)
 * label FINISH, inline finishK         InstanceStorage.finishBuild / failBuild ->
 *                                      BuildCoordinator.finish(_:failed:_:): under M store the
 *                                      value (or not), clear the ticket, mark it finished; a
 *                                      failed build's failure is its provenCycle (kfail); the
 *                                      registration forgets its possible cycle on success,
 *                                      remembers the ticket's on failure (remembered[]);
 *                                      remove and resume every waiter
 * proctype Cancel, inline handlers     Task.cancel() on a task (it reaches its structured
 *                                      descendants): the flag, then waitAsync's onCancel under
 *                                      M: remove the waiter, resume it with CancellationError
 * ---------------------------------------------------------------------------------------------
 * Broken variants (each must be caught; see check.sh):
 * -DINHERITED_NONBLOCKING   inherited frames do not block: the walk follows owners only, a
 *                           transient on an inherited frame runs again (the old hang).
 * -DINHERITED_DEFINITE      an inherited open frame counts as the waiter's own (the old
 *                           `ownsForWaiter`): a proven cycle at once, no deadline.
 * -DNEVER_CLOSE             frames are never closed: inherited frames stay in paths forever.
 * -DNO_DEADLINE             a possible cycle waits without a deadline.
 * -DCANCEL_DOUBLE_RESUME    the cancellation handler resumes the waiter but leaves it
 *                           registered: `finish` (or the deadline) resumes it again.
 * -DCANCEL_NO_RESUME        the cancellation handler removes the waiter but never resumes it.
 * -DRACY_CLAIM              the empty-storage check and the claim are two steps.
 * -DSTOP_AT_INHERITED       the definite chain stops at the first inherited frame (an old
 *                           closure): a definite cycle through it waits for the deadline.
 * -DNO_DEFER                expire never gives way: a deadline that still closes a cycle fails
 *                           the wait (the false cycle of task_behind_cycle).
 * -DCHAIN_ONLY              the builds a wait is stuck behind are the closure's chain only, not
 *                           the builds their owners wait for (the previous scope, finding 7).
 * -DDEFER_SIBLINGS          a wait gives way to any other waiting inside a build it is stuck
 *                           behind, siblings in the same frame too (they defer to each other
 *                           until the cap: P6).
 * -DHAND_OFF_POSSIBLE       a failed build hands the possible cycle a deadline marked on it to
 *                           its waiters (as the proven one).
 * -DREMEMBERED_PROVEN       a remembered cycle marks its chain with provenCycle (the previous
 *                           code): a failed build hands it to its waiters (finding 8).
 * -DSTOP_AT_CLOSED          the path ends at the first closed frame (the previous model): a
 *                           Task {} awaited through its handle hangs (task_handle_cycle).
 * -DOWN_CYCLE_UNMARKED      checkOwnPath marks nothing (the previous code): a build that fails
 *                           on a cycle its owner proved on its own path lets its waiters look
 *                           again; a Task {} its factory started builds it again, and starts
 *                           another (P7; the endless retries of cycleThroughATaskThatBuilds).
 * -DNO_MEMORY               no remembered cycles: each retry of a build that failed on a
 *                           possible cycle waits for a deadline of its own (P6).
 * Limits (not faults; documented runs, README "Findings"):
 * -DEARLY_DEADLINE, SLOW    the deadline may pass at any moment, also while the build waited
 *                           for is still making progress (a factory that runs longer than
 *                           Container.possibleCycleTimeout). SLOW (a configuration's) also
 *                           accepts the deadline's own error (slowCfg: the limit, finding 2)
 *                           and checks what follows from it.
 * -DNO_ORDER                a re-armed deadline may pass before the deadlines that were
 *                           pending when it was re-armed (timers in no order at all).
 * By hand: -DMAXDEFER=n (the cap, 2 by default; Swift's is 8), -DFIRES=n / -DDEADLINES=n (the
 * P6 bounds; 0: unchecked), -DCANCELS=n (cancel task n at any moment; expect() is skipped),
 * -DPROBE=expr (fails iff a state with expr is reachable), -DTRACE (with `spin -t`: the trail's
 * events, one line each).
 *
 * Properties (safety; pan is compiled with -DSAFETY):
 *   P1  No false cycle. The await graph: i -> j when i's factory resolves j itself (DEP, TRY),
 *       in a structured child it awaits (SPAWN_S), or in a Task {} whose handle it awaits
 *       (AWAIT_U). At each origin of a cycle error:
 *       - own frame (CALL), proven walk (WAIT), deadline (expire): the registration lies on a
 *         cycle of the await graph (`cycleIsDeclared`); a proven one is also real: with the
 *         wait added, the task is on a cycle of the ghost wait-for relation (`cycleIsReal`).
 *         Where deadlines may pass early (slowCfg), the deadline's own error is the documented
 *         limit and is not checked;
 *       - remembered cycle (WAIT, reported at once): the signature is that of a cycle a
 *         deadline reported earlier in this run (`cycleIsRemembered`) -- the wait closes that
 *         same cycle again -- and, as for that deadline, the registration is on a cycle of
 *         the await graph (`cycleIsDeclared`, not checked under slowCfg). It is not required
 *         to be real: it is only as true as the deadline's report it repeats;
 *       - handed on by a failed build (HANDED): the build was marked by a proven report (a
 *         remembered one marks possibleCycle only); the registration is on a cycle of the await graph (`cycleIsHanded`), under
 *         slowCfg too.
 *       Without a declared cycle, a cancellation or a factory's own failure, every task
 *       succeeds (`allSucceeded`).
 *   P2  No hang: SPIN's invalid-end-state check (every task ends; init sees running == 0). The
 *       configuration's expect() says how each task must end.
 *   P3  One build per singleton: a factory runs again only after a failed run (`oneRun`), a
 *       value is stored once (`oneBuild`), every task gets the same instance (`sameValue`).
 *   P4  Each suspended wait is resumed exactly once (`resumes[u] == 1` at each resume), by
 *       finish, its cancellation or its deadline; none stays suspended (P2).
 *   P5  Proven at once. Where the configuration says every cycle is proven (provenCfg), no
 *       deadline passes (`reportedAtOnce`); where it says no wait is even a possible one
 *       (atOnceCfg), none is (`provenAtOnce`).
 *   P6  Time, counted in deadlines (SPIN has no clock): a wait sees at most maxFires of its
 *       deadlines pass (`withinFires`; 1 unless the configuration says otherwise: a wait gives
 *       way at most once and then ends before its deadline passes again), and a run has at
 *       most maxDeadlines waits ended by a deadline (`withinDeadlines`; where the
 *       configuration sets it).
 *   P7  Own cycles handed on. A build that fails on a cycle its owner task proved on its own
 *       path (CALL: checkOwnPath) hands that cycle to its waiters (`ownHanded`), as a build a
 *       wait proved a cycle through does: they would only form it again.
 *   Also: a waiter's edge always points at an open ticket (Monitor), the chain of definite
 *   edges never loops (`chainAcyclic`), tables never overflow, M is released by its holder.
 *
 * The deadline: a deadline passes only when the waiter is stuck -- in the ghost relation it
 * reaches a cycle, or a wait nobody will resume -- i.e. the build it waits for can no longer
 * finish but for a deadline or a cancellation (the real deadline is assumed longer than any
 * factory runs while it makes progress). Unlike Promela's `timeout` this is local to the wait:
 * other tasks may still move, and a cancellation may come before or after it. The first
 * deadlines of the stuck waiters pass in any order (their timers start after the mutex is
 * released, in any order). All have the same length, so a re-armed deadline -- a full timeout
 * from its re-arm -- passes after every deadline that was pending when it was re-armed
 * (dafter, fireM, computed by ghost()); a waiter that is not stuck does not hold the others
 * back. A re-arm counts a deferral, at most MAXDEFER per wait, so re-arms end.
 */

#ifndef NT
#error "include a configuration (Spec/configs/task_*.pml), which defines NT, NTOP and configure()"
#endif

#include "TaskWait.h"

/* ---- configuration (written once, before any task runs) ----------------------------------- */
byte lifetime[MAXI];
byte nsteps[MAXI];
byte sop[MAXI * MAXS];
byte sarg[MAXI * MAXS];
byte job[MAXNT];                  /* the registration task t resolves                          */
bool reach[MAXI * MAXI];          /* closure of the await graph: DEP, TRY, SPAWN_S edges       */
bool onAwaitCycle[MAXI];          /* on a cycle of the await graph                             */
bool cycleCfg;                    /* the await graph has a cycle                               */
bool cancelCfg;                   /* some task may be cancelled                                */
bool failCfg;                     /* some factory throws an error of its own (FAIL)            */
bool atOnceCfg;                   /* every cycle must be proven (no possible wait may occur)   */
bool provenCfg;                   /* every cycle must be reported at once: no deadline passes  */
bool budgetCfg;                   /* a factory may find no task id left (the generation bound) */
bool slowCfg;                     /* SLOW: a deadline may pass while the build can still       */
                                  /* finish (a factory slower than the timeout; finding 2)     */
byte maxFires;                    /* P6: deadlines a wait may see pass (0: not checked)        */
byte maxDeadlines;                /* P6: waits a run may end at a deadline (0: not checked)    */

/* ---- storage of the singletons (WordLock) ------------------------------------------------- */
bool built[MAXI];
byte value[MAXI];                 /* the ticket whose build was stored                         */
byte cellTicket[MAXI];            /* InstanceStorage.ticket                                    */
int remembered[MAXI];             /* AsyncRecord.failedOnPossibleCycle (a signature; 0 = nil), */
                                  /* guarded by M                                              */

/* ---- frames (AsyncFrame) -------------------------------------------------------------------- */
byte nextF = 1;
byte finst[MAXF];                 /* frame.key: the registration whose factory runs            */
byte fowner[MAXF];                /* taskID                                                    */
byte fpar[MAXF];                  /* parent: the pushing task's top, if open when pushed       */
byte fticket[MAXF];               /* a singleton's build ticket; a transient's closeTicket      */
byte frun[MAXF];                  /* which run of its registration the frame is (from 1)       */
short openP;                      /* bit f: f is open (not isClosed)                           */
short openR;                      /* ghost: bit f: f's factory has not returned                 */
byte fkids[MAXF];                 /* live structured children started in f                     */
byte fkerr[MAXF];                 /* the first error of one of them (what `try await` throws)  */

/* ---- tasks ---------------------------------------------------------------------------------- */
byte nextTask;
byte running;
byte itop[MAXNT];                 /* AsyncResolutionPath.top the task inherited: the frame it  */
                                  /* was started in (0: a top-level task)                      */
byte sparent[MAXNT];              /* the frame that awaits structured child t; 0 otherwise     */
byte awaitF[MAXNT];               /* ghost: t awaits the structured children of this frame     */
byte uby[MAXNT];                  /* the frame that started Task {} t (SPAWN_U); 0 otherwise   */
byte awaitH[MAXNT];               /* the Task {}s t awaits through their handles (AWAIT_U)     */
byte herr[MAXNT];                 /* the first error of one of them (what `value` rethrows)    */
byte res[MAXNT];                  /* R_OK, E_CYC, E_CANC, E_FAIL; 0 = not ended                */
byte cancelled;                   /* bit t: Task.isCancelled                                    */

/* ---- tickets (BuildTicket) ------------------------------------------------------------------ */
byte nextT = 1;
byte kframe[MAXT];                /* ticket.frame (its owner is fowner[kframe[k]])             */
bool finished[MAXT];              /* guarded by M                                              */
byte kfail[MAXT];                 /* ticket.failure: E_CYC or 0                                */
bool kprov[MAXT];                 /* ticket.provenCycle != nil (cycleError marked it), or      */
                                  /* ticket.frame.provenCycle != nil (checkOwnPath marked it)  */
bool kownc[MAXT];                 /* ghost: the build is on a cycle its owner task's own path   */
                                  /* proved (CALL); a failure must hand the cycle on (P7)      */
int kpos[MAXT];                   /* ticket.possibleCycle: the signature expire marked, or 0   */
byte waiters[MAXT];               /* bit set of registered waiters, guarded by M               */
bool pend[MAXT];                  /* ghost: the frame closed and finish is on its way          */

/* ---- BuildCoordinator (guarded by M) -------------------------------------------------------- */
byte M;
byte waitsK[MAXNT];               /* Graph.waits                                               */
short winh[MAXNT];                /* the registration's inherited frames (Graph.inside)        */
byte wfirst[MAXNT];               /* SuspendedWait.inherited.first: the innermost of them      */
bool dl[MAXNT];                   /* Graph.deadlines[t] != nil: t's deadline is pending        */
byte ddef[MAXNT];                 /* Deadline.deferrals                                        */
byte dafter[MAXNT];               /* ghost: the tasks whose deadline, pending when t's was     */
                                  /* re-armed, passes before t's (a full timeout later)        */
byte wreg[MAXNT];                 /* rank of t's registration among the registered waiters:    */
                                  /* the order of the Graph.inside lists (the walk's order)    */
byte nreg;                        /* registered waiters                                        */
bool susp[MAXNT];                 /* t is suspended on its continuation                        */
byte resumedBy[MAXNT];
byte resumes[MAXNT];              /* resumptions of t's current wait (P4: exactly one)          */

/* ---- ghost wait-for relation between tasks (derived; recomputed by ghost()) ---------------- */
byte g[MAXNT];                    /* g[a]: tasks a reaches (bit 0: a wait nobody will resume)   */
byte cycM;                        /* tasks on a cycle (bit 0 always)                           */
byte stuckM;                      /* tasks that reach a cycle: blocked for good, but for a      */
                                  /* deadline or a cancellation                                */
byte fireM;                       /* tasks whose deadline may pass now (see SUSP)              */

/* ---- bookkeeping for the properties --------------------------------------------------------- */
byte runs[MAXI];
byte builds[MAXI];
bool failedRun[MAXI];
byte got[MAXI];
byte deadlineHit;                 /* bit t: t got a cycle error from its deadline              */
byte provenHit;                   /* bit t: t got a proven cycle error from the walk           */
byte rememberedHit;               /* bit t: t got a remembered cycle at once                   */
byte rearmHit;                    /* bit t: t's deadline gave way (was re-armed)               */
byte fires[MAXNT];                /* deadlines that passed during t's current wait             */
byte dlFails;                     /* waits ended by a deadline in this run                     */
bool budgetHit;                   /* a factory found no task id left and started no task       */
int sigSeen[4];                   /* signatures of the cycles deadlines reported in this run   */

/* scratch of deterministic computations (d_step only) */
hidden byte gi, gx, gk, gf, wk, wn, wx, wy, wi, wr, wLen, wPL, dsp, di, later, ci, cj, cm;
hidden byte sl, ss, sm, sj, hu, hv;
hidden short wS;
hidden int sgn;
hidden byte wCh[MAXT], dfrom[MAXT], dstk[MAXT];
hidden byte sq[MAXP + MAXT];
hidden byte cycleIsDeclared, cycleIsReal, cycleIsHanded, cycleIsRemembered, oneRun, oneBuild;
hidden byte sameValue, chainAcyclic, allSucceeded, provenAtOnce, reportedAtOnce, expected;
hidden byte withinFires, withinDeadlines, ownHanded;

#ifdef TRACE
#define TR(x) x                 /* `spin -t -DTRACE`: the trail's events, one line each        */
#else
#define TR(x) skip
#endif

inline lockM(t)   { atomic { M == 0 -> M = t } }
inline unlockM(t) { assert(M == t); M = 0 }

/* The ghost wait-for relation between tasks, and its closure. a -> b: a is suspended on a
 * ticket whose frame b's factory is still running; a -> its live structured children while it
 * awaits them; a -> 0 when a waits for something that will never resume it (a finished ticket,
 * a closed frame whose ticket nobody will finish, no registration). Then the deadlines that
 * may pass (fireM). Run after every change of the state it reads (always inside d_step). */
inline ghost() {
    gi = 1;
    do
    :: gi <= NT ->
        g[gi] = 0;
        if
        :: susp[gi] && waitsK[gi] != 0 ->
            gk = waitsK[gi]; gf = kframe[gk];
            if
            :: finished[gk] -> g[gi] = 1
            :: !finished[gk] && (openR & (1 << gf)) -> g[gi] = 1 << fowner[gf]
            :: !finished[gk] && !(openR & (1 << gf)) && pend[gk] -> skip
            :: else -> g[gi] = 1
            fi
        :: susp[gi] && waitsK[gi] == 0 -> g[gi] = 1
        :: else -> skip
        fi;
        if
        :: awaitF[gi] != 0 -> g[gi] = g[gi] | fkids[awaitF[gi]]
        :: else -> skip
        fi;
        g[gi] = g[gi] | awaitH[gi];
        gi++
    :: else -> break
    od;
    g[0] = 1;
    gx = 0;
    do
    :: gx <= NT ->
        gi = 0;
        do
        :: gi <= NT ->
            if
            :: g[gi] & (1 << gx) -> g[gi] = g[gi] | g[gx]
            :: else -> skip
            fi;
            gi++
        :: else -> break
        od;
        gx++
    :: else -> break
    od;
    cycM = 0; stuckM = 0; gi = 0;
    do
    :: gi <= NT -> if :: g[gi] & (1 << gi) -> cycM = cycM | (1 << gi) :: else -> skip fi; gi++
    :: else -> break
    od;
    gi = 0;
    do
    :: gi <= NT -> if :: g[gi] & cycM -> stuckM = stuckM | (1 << gi) :: else -> skip fi; gi++
    :: else -> break
    od;
    /* the deadlines that may pass now: a stuck waiter's, unless the deadline of a stuck waiter
     * that was pending when this one was re-armed is still pending (it passes first) */
    fireM = 0; gi = 1;
    do
    :: gi <= NT ->
        if
        :: dl[gi] && susp[gi] && (stuckM & (1 << gi)) ->
            gk = 1; gx = 1;
            do
            :: gx <= NT ->
                if
#ifndef NO_ORDER
                :: dl[gx] && (dafter[gi] & (1 << gx)) && (stuckM & (1 << gx)) -> gk = 0
#endif
                :: else -> skip
                fi;
                gx++
            :: else -> break
            od;
            if
            :: gk -> fireM = fireM | (1 << gi)
            :: else -> skip
            fi
        :: else -> skip
        fi;
        gi++
    :: else -> break
    od;
    gi = 0; gx = 0; gk = 0; gf = 0
}

/* BuildCoordinator.Graph.closure: does waiter W (inherited frames MI) waiting for ticket K0
 * close a cycle? First the chain of definite edges (each owner's own wait): a ticket W owns ->
 * proven; the first ticket whose frame W inherited is remembered as a possible closure (the
 * chain up to it), and the chain goes on, so a cycle of definite edges through an inherited
 * frame is still proven. Then, if the chain closed nothing, every edge, depth first in the
 * order of the Swift code: successors of ticket k are the ticket its owner waits for, then the
 * tickets of the waiters that inherited k's frame (Graph.inside, in registration order);
 * discovering a ticket W owns or whose frame W inherited -> possible. Result in `out`; the
 * chain it returns (the proven chain, the remembered one or the path found, K0 first) in
 * wCh[0 .. wLen-1]. */
inline closure(W, K0, MI, out) {
    out = W_NONE; wk = K0; wn = 0; wLen = 0; wPL = 0; chainAcyclic = true;
    do
    :: wCh[wLen] = wk; wLen++;
       if
       :: fowner[kframe[wk]] == W -> out = W_PROVEN; break
       :: else -> skip
       fi;
       if
       :: wPL == 0 && (MI & (1 << kframe[wk])) ->
#if defined(INHERITED_DEFINITE)
           out = W_PROVEN; break                   /* the old ownsForWaiter                     */
#elif defined(STOP_AT_INHERITED)
           out = W_POSSIBLE; break                 /* the old walk: it stops here               */
#else
           wPL = wLen                              /* possible; the chain may still prove one   */
#endif
       :: else -> skip
       fi;
       if
       :: waitsK[fowner[kframe[wk]]] != 0 ->
           wk = waitsK[fowner[kframe[wk]]]; wn++;
           chainAcyclic = (wn < MAXNT); assert(chainAcyclic)
       :: else -> break
       fi
    od;
    if
    :: out == W_NONE && wPL != 0 -> out = W_POSSIBLE; wLen = wPL
    :: else -> skip
    fi;
#if !defined(INHERITED_DEFINITE) && !defined(INHERITED_NONBLOCKING)
    if
    :: out == W_NONE ->
        wLen = 0;
        wi = 0;
        do
        :: wi < MAXT -> dfrom[wi] = 0; dstk[wi] = 0; wi++
        :: else -> break
        od;
        dfrom[K0] = K0; dstk[0] = K0; dsp = 1; wx = 0;
        do
        :: dsp > 0 && wx == 0 ->
            dsp--; wk = dstk[dsp]; dstk[dsp] = 0;
            wr = 0;                 /* 0: the owner's wait; r > 0: the waiter registered r-th   */
            do
            :: wx == 0 && wr <= nreg ->
                wy = 0;
                if
                :: wr == 0 -> wy = waitsK[fowner[kframe[wk]]]
                :: else ->
                    wi = 1;
                    do
                    :: wi <= NT ->
                        if
                        :: wreg[wi] == wr && waitsK[wi] != 0 && (winh[wi] & (1 << kframe[wk])) ->
                            wy = waitsK[wi]
                        :: else -> skip
                        fi;
                        wi++
                    :: else -> break
                    od
                fi;
                if
                :: wy != 0 && dfrom[wy] == 0 ->
                    dfrom[wy] = wk;
                    if
                    :: fowner[kframe[wy]] == W || (MI & (1 << kframe[wy])) -> wx = wy
                    :: else -> assert(dsp < MAXT); dstk[dsp] = wy; dsp++
                    fi
                :: else -> skip
                fi;
                wr++
            :: else -> break
            od
        :: else -> break
        od;
        if
        :: wx != 0 ->               /* the path back to K0, then K0 first */
            out = W_POSSIBLE;
            do
            :: wCh[wLen] = wx; wLen++;
               if
               :: wx == K0 -> break
               :: else -> wx = dfrom[wx]
               fi
            od;
            wi = 0;
            do
            :: wi < wLen / 2 ->
                wy = wCh[wi]; wCh[wi] = wCh[wLen - 1 - wi]; wCh[wLen - 1 - wi] = wy; wi++
            :: else -> break
            od
        :: else -> skip
        fi;
        wi = 0;
        do
        :: wi < MAXT -> dfrom[wi] = 0; dstk[wi] = 0; wi++
        :: else -> break
        od
    :: else -> skip
    fi;
#endif
    wk = 0; wn = 0; wx = 0; wy = 0; wi = 0; wr = 0; wPL = 0; dsp = 0
}

/* The tickets of wCh as a bit set */
inline chainMask(out) {
    out = 0; wi = 0;
    do
    :: wi < wLen -> out = out | (1 << wCh[wi]); wi++
    :: else -> break
    od;
    wi = 0
}

/* BuildCoordinator.cycleSignature(path + chain names): the names from the first occurrence of
 * the last one (the whole path if it occurs only there), rotated to start at the least; as a
 * number, one base-4 digit (registration + 1) per name. The waiter's path is the caller's
 * wp[0 .. wpl-1] (outermost first), the chain wCh[0 .. wLen-1]. */
inline signature(out) {
    sl = 0; sj = 0;
    do
    :: sj < wpl -> sq[sl] = wp[sj]; sl++; sj++
    :: else -> break
    od;
    sj = 0;
    do
    :: sj < wLen -> sq[sl] = finst[kframe[wCh[sj]]]; sl++; sj++
    :: else -> break
    od;
    ss = 0;
    do
    :: sq[ss] != sq[sl - 1] -> ss++
    :: else -> break
    od;
    if
    :: ss < sl - 1 -> sl = sl - 1          /* the loop: sq[ss .. sl-1]                         */
    :: else -> ss = 0                      /* no earlier occurrence: the whole path            */
    fi;
    assert(sl - ss <= 10);
    sm = ss; sj = ss + 1;
    do
    :: sj < sl -> if :: sq[sj] < sq[sm] -> sm = sj :: else -> skip fi; sj++
    :: else -> break
    od;
    out = 0; sj = sm;
    do
    :: sj < sl -> out = out * 4 + sq[sj] + 1; sj++
    :: else -> break
    od;
    sj = ss;
    do
    :: sj < sm -> out = out * 4 + sq[sj] + 1; sj++
    :: else -> break
    od;
    sj = 0;
    do
    :: sj < MAXP + MAXT -> sq[sj] = 0; sj++
    :: else -> break
    od;
    sl = 0; ss = 0; sm = 0; sj = 0
}

/* Graph.deeperPossibleCycle(behind: wCh, than: W): the builds W is stuck behind are the chain
 * and the builds their owners wait for (from the chain's last ticket, along Graph.waits);
 * another task with a pending deadline waits deeper inside one of them, K, when it inherited
 * K's frame and that frame is not the innermost frame it inherited (siblings, whose innermost
 * inherited frame is K's, are not deeper). */
#ifndef DEFER_SIBLINGS
#define NOT_SIBLING(u, fr) (wfirst[u] != (fr))
#else
#define NOT_SIBLING(u, fr) true             /* the broken variant: siblings defer too     */
#endif
inline deeper(W, out) {
    out = false;
#ifndef NO_DEFER
    chainMask(wS);
#ifndef CHAIN_ONLY
    wk = wCh[wLen - 1];
    do
    :: waitsK[fowner[kframe[wk]]] != 0 && !(wS & (1 << waitsK[fowner[kframe[wk]]])) ->
        wk = waitsK[fowner[kframe[wk]]]; wS = wS | (1 << wk)
    :: else -> break
    od;
#endif
    wk = 1;
    do
    :: wk < nextT ->
        if
        :: wS & (1 << wk) ->
            wi = 1;
            do
            :: wi <= NT ->
                if
                :: wi != W && waitsK[wi] != 0 && dl[wi] && (winh[wi] & (1 << kframe[wk])) &&
                   NOT_SIBLING(wi, kframe[wk]) -> out = true
                :: else -> skip
                fi;
                wi++
            :: else -> break
            od
        :: else -> skip
        fi;
        wk++
    :: else -> break
    od;
    wk = 0; wi = 0; wS = 0
#endif
}

/* the deadline recorded with the wait (Graph.deadlines[u] = Deadline()); its timer passes in
 * any order with the pending ones (the timers are started after the mutex is released) */
inline dlArm(u) { dl[u] = true; ddef[u] = 0; dafter[u] = 0 }

/* u's deadline passed (whatever expire makes of it): the re-armed ones may pass after it */
inline dlPassed(u) {
    di = 1;
    do
    :: di <= NT -> dafter[di] = dafter[di] & ~(1 << u); di++
    :: else -> break
    od;
    di = 0
}

/* expire re-arms it (deferrals + 1): a full timeout from now, so it passes after every deadline
 * pending now */
inline dlRearm(u) {
    ddef[u]++;
    di = 1;
    do
    :: di <= NT ->
        if :: di != u && dl[di] -> dafter[u] = dafter[u] | (1 << di) :: else -> skip fi;
        di++
    :: else -> break
    od;
    di = 0
}

/* the deadline is removed (removeTaskWait, or deadlines[u] = nil) */
inline dlRemove(u) {
    if
    :: dl[u] -> dlPassed(u); dl[u] = false; ddef[u] = 0; dafter[u] = 0
    :: else -> skip
    fi
}

/* a registration (its place at the end of each Graph.inside list), and its removal */
inline regAdd(u) { nreg++; wreg[u] = nreg }
inline regRemove(u) {
    if
    :: wreg[u] != 0 ->
        di = 1;
        do
        :: di <= NT -> if :: wreg[di] > wreg[u] -> wreg[di]-- :: else -> skip fi; di++
        :: else -> break
        od;
        wreg[u] = 0; nreg--; di = 0
    :: else -> skip
    fi
}

/* removeTaskWait: the edge, the inside entries, the deadline */
inline unregister(u) {
    waiters[waitsK[u]] = waiters[waitsK[u]] & ~(1 << u);
    waitsK[u] = 0; winh[u] = 0; wfirst[u] = 0;
    dlRemove(u); regRemove(u)
}

/* finish(K, failed: FAILURE != 0): mark it finished; a failed build's failure is the proven cycle
 * reported through it (provenCycle), if any; the registration forgets its possible cycle when
 * the build succeeds, remembers the one a deadline marked when it fails; remove every waiter's
 * registration (edge, inside entries, deadline) and resume it (after M in Swift; here in the
 * same step), with the failure or to look again. */
inline finishK(K, FAILURE) {
    finished[K] = true; pend[K] = false;
    if
    :: (FAILURE) != 0 && kprov[K] -> kfail[K] = E_CYC
#ifdef HAND_OFF_POSSIBLE
    :: (FAILURE) != 0 && !kprov[K] && kpos[K] != 0 -> kfail[K] = E_CYC  /* the broken variant     */
#endif
    :: else -> kfail[K] = 0
    fi;
#ifndef NO_MEMORY
    if
    :: (FAILURE) == 0 -> remembered[finst[kframe[K]]] = 0
    :: (FAILURE) != 0 && kpos[K] != 0 -> remembered[finst[kframe[K]]] = kpos[K]
    :: else -> skip
    fi;
#endif
    gi = 1;
    do
    :: gi <= NT ->
        if
        :: waiters[K] & (1 << gi) ->
            assert(waitsK[gi] == K);
            unregister(gi); susp[gi] = false;
            if
            :: kfail[K] == E_CYC -> resumedBy[gi] = RB_CYC
            :: else -> resumedBy[gi] = RB_OK
            fi;
            resumes[gi]++; assert(resumes[gi] == 1)                                     /* P4 */
        :: else -> skip
        fi;
        gi++
    :: else -> break
    od;
    waiters[K] = 0; gi = 0;
    /* P7: a build that fails on a cycle its owner's own path proved hands the cycle on */
    ownHanded = ((FAILURE) == 0 || !kownc[K] || kfail[K] == E_CYC); assert(ownHanded)
}

/* Task.cancel() of the tasks in `roots`: they and their structured descendants are marked
 * cancelled; `newly` gets those that were not yet (their handlers run next, under M). */
inline cancelTasks(roots, newly) {
    d_step {
        cm = roots; ci = 0;
        do
        :: ci < NT ->
            cj = 1;
            do
            :: cj <= NT ->
                if
                :: sparent[cj] != 0 && (cm & (1 << fowner[sparent[cj]])) -> cm = cm | (1 << cj)
                :: else -> skip
                fi;
                cj++
            :: else -> break
            od;
            ci++
        :: else -> break
        od;
        newly = cm & ~cancelled;
        cancelled = cancelled | cm;
        cm = 0; ci = 0; cj = 0
    }
}

/* waitAsync's onCancel for each task in `newly`, under M: a registered waiter is removed and
 * resumed with CancellationError; one not (yet) waiting sees `cancelled` when it registers. */
inline handlers(newly) {
    d_step {
        ci = 1;
        do
        :: ci <= NT ->
            if
            :: (newly & (1 << ci)) && waitsK[ci] != 0 ->
#ifndef CANCEL_DOUBLE_RESUME
                unregister(ci);
#endif
#ifndef CANCEL_NO_RESUME
                susp[ci] = false; resumedBy[ci] = RB_CANCEL; resumes[ci]++;
                assert(resumes[ci] == 1)                                                 /* P4 */
#else
                skip
#endif
            :: else -> skip
            fi;
            ci++
        :: else -> break
        od;
        newly = 0; ci = 0; cj = 0;
        ghost()
    }
}

/* empty storage: this task opens a ticket naming the frame it will run the factory in */
inline claim() {
    assert(nextT < MAXT && nextF < MAXF);
    k = nextT; nextT++; f = nextF; nextF++;
    finst[f] = inst; fowner[f] = t; fticket[f] = k; kframe[k] = f;
    openP = openP | (1 << f); openR = openR | (1 << f);
    cellTicket[inst] = k
}

/* held(FR, out): whether the frame FR is alive (AsyncFrame.parent is weak): open (held by its
 * task's binding), or closed but held by a living task's task-local binding (itop), by its open
 * build ticket (BuildTicket.frame) or by a registered wait that inherited it
 * (SuspendedWait.inherited). */
inline held(FR, out) {
    out = ((openP & (1 << (FR))) != 0) ||
          (fticket[FR] != 0 && kframe[fticket[FR]] == (FR) && !finished[fticket[FR]]);
    hu = 1;
    do
    :: hu < nextTask ->
        if
        :: (itop[hu] == (FR) && res[hu] == 0) || (waitsK[hu] != 0 && (winh[hu] & (1 << (FR)))) -> out = true
        :: else -> skip
        fi;
        hu++
    :: else -> break
    od;
    hu = 0
}

/* upFrom(FR): the next frame of the walk above FR: its parent, if that is still alive (a freed
 * parent reads as nil: the walk ends). */
inline upFrom(FR) {
    FR = fpar[FR];
    if
    :: FR != 0 -> held(FR, hv); if :: !hv -> FR = 0 :: else -> skip fi; hv = 0
    :: else -> skip
    fi
}

/* A closed frame on the walk: AsyncFrame.nearestOpen walks past it (STOP_AT_CLOSED, the
 * previous model: the path ends there). */
#ifndef STOP_AT_CLOSED
#define CLOSED_STEP(FR) upFrom(FR)
#else
#define CLOSED_STEP(FR) FR = 0
#endif

/* The task's open path (AsyncFrame.openChain from its top): its own frames fs[], above the
 * open frames of the path it inherited, from its top up, skipping closed ones
 * (AsyncFrame.nearestOpen) while they are alive (held). mi: the inherited ones
 * (inherited), mf: the innermost of them (inherited.first), wp[0 .. wpl-1]: the names of the
 * whole path, outermost first (waiterPath). */
inline pathOf() {
    mi = 0; mf = 0; wpl = 0; x = itop[t];
    do
    :: x != 0 && (openP & (1 << x)) ->
        mi = mi | (1 << x);
        if :: mf == 0 -> mf = x :: else -> skip fi;
        assert(wpl < MAXP); wp[wpl] = finst[x]; wpl++;
        upFrom(x)
    :: x != 0 && !(openP & (1 << x)) -> CLOSED_STEP(x)
    :: else -> break
    od;
    i = 0;
    do
    :: i < wpl / 2 -> x = wp[i]; wp[i] = wp[wpl - 1 - i]; wp[wpl - 1 - i] = x; i++
    :: else -> break
    od;
    i = 0;
    do
    :: i < sp -> assert(wpl < MAXP); wp[wpl] = finst[fs[i]]; wpl++; i++
    :: else -> break
    od;
#ifdef INHERITED_NONBLOCKING
    mi = 0; mf = 0;
#endif
    i = 0; x = 0
}

inline clearPath() {
    i = 0;
    do
    :: i < MAXP -> wp[i] = 0; i++
    :: else -> break
    od;
    i = 0; wpl = 0; mi = 0; mf = 0
}

proctype Task(byte t)
{
    byte sp;                      /* own frames pushed                                         */
    byte fs[MAXD];                /* own frames, innermost last                                */
    byte pc[MAXD];                /* next step of each own frame's factory                     */
    byte inst, k, f, x, op, i, err, w, cn, kc, oc;
    short mi;                     /* inherited open frames, read before a wait                 */
    byte mf;                      /* the innermost of them                                     */
    byte wp[MAXP];                /* the path's names, outermost first (SuspendedWait.path)    */
    byte wpl;

    inst = job[t];

CALL:   /* resolveAsync(inst): checkOwnPath -- a factory of this task runs inst: proven cycle */
    atomic {
        x = 0; i = 0;
        do
        :: i < sp -> if :: finst[fs[i]] == inst -> x = 1; oc = i :: else -> skip fi; i++
        :: else -> break
        od;
        i = 0
    };
    if
    :: x == 1 ->
        d_step {
            cycleIsDeclared = onAwaitCycle[inst]; assert(cycleIsDeclared);        /* P1 */
            x = 0; err = E_CYC
        };
        goto OWNMARK
    :: else -> skip
    fi;
    if
    :: lifetime[inst] == TRANSIENT -> goto TSCAN
    :: else -> goto LOOP
    fi;

TSCAN:  /* checkTransientPath: an inherited factory on the open path runs inst? wait for it */
    atomic {
        f = 0; x = itop[t];
        do
        :: x != 0 && (openP & (1 << x)) ->
            if :: f == 0 && finst[x] == inst -> f = x :: else -> skip fi;
            upFrom(x)
        :: x != 0 && !(openP & (1 << x)) -> CLOSED_STEP(x)
        :: else -> break
        od;
        x = 0
#ifdef INHERITED_NONBLOCKING
        ; f = 0
#endif
    };
    if
    :: f == 0 -> goto RUN
    :: else -> skip
    fi;
    lockM(t);
    atomic {   /* ticketForClose, under M */
        if
        :: !(openP & (1 << f)) -> unlockM(t); f = 0; goto TSCAN      /* closed meanwhile       */
        :: else ->
            if
            :: fticket[f] == 0 ->
                assert(nextT < MAXT);
                fticket[f] = nextT; kframe[nextT] = f; nextT++
            :: else -> skip
            fi;
            k = fticket[f]; f = 0;
            unlockM(t)
        fi
    };
    goto WAIT;

LOOP:   /* InstanceStorage.nextStep, under the slot lock */
    atomic {
        if
        :: built[inst] -> x = value[inst]; goto RETVAL
        :: !built[inst] && cellTicket[inst] == 0 ->
#ifndef RACY_CLAIM
            claim(); TR(printf("T%d builds %d: ticket %d, frame %d\n", t, inst, k, f)); goto PUSH
#else
            goto CLAIM             /* the broken variant: the claim is a step of its own        */
#endif
        :: else -> k = cellTicket[inst]
        fi
    };
    goto WAIT;
#ifdef RACY_CLAIM
CLAIM:
    atomic { claim(); goto PUSH };
#endif

WAIT:   /* BuildCoordinator.waitAsync(for: k, path:): the path is read before the mutex */
    atomic { pathOf() };
    lockM(t);
    atomic {
        if
        :: finished[k] ->
            unlockM(t); clearPath();
            if
            :: kfail[k] == E_CYC -> k = 0; err = E_CYC; goto HANDED
            :: else -> k = 0; goto AGAIN
            fi
        :: !finished[k] && (cancelled & (1 << t)) ->
            unlockM(t); clearPath(); k = 0; err = E_CANC; goto RET
        :: else -> skip
        fi;
        d_step {
            closure(t, k, mi, w);
            if
            :: w == W_PROVEN ->        /* circularDependency at once: a real cycle              */
                cycleIsDeclared = onAwaitCycle[inst]; assert(cycleIsDeclared);    /* P1 */
                x = fowner[kframe[k]];
                cycleIsReal = ((openR & (1 << kframe[k])) != 0) && ((g[x] & (1 << t)) != 0);
                assert(cycleIsReal);                                               /* P1 */
                provenHit = provenHit | (1 << t);
                TR(printf("T%d: waiting for ticket %d closes a proven cycle\n", t, k));
                chainMask(kc); x = 0
            :: w == W_POSSIBLE ->
#ifndef NO_MEMORY
                /* the same possible cycle a build on the chain or the path failed on: at once */
                signature(sgn);
                x = 0; i = 0;
                do
                :: i < wLen -> if :: remembered[finst[kframe[wCh[i]]]] == sgn -> x = 1 :: else -> skip fi; i++
                :: else -> break
                od;
                i = 0;
                do
                :: i < wpl -> if :: remembered[wp[i]] == sgn -> x = 1 :: else -> skip fi; i++
                :: else -> break
                od;
                i = 0;
                if
                :: x == 1 ->
                    w = W_REMEMBERED;
                    cycleIsRemembered = false;
                    do
                    :: i < 4 -> if :: sigSeen[i] == sgn -> cycleIsRemembered = true :: else -> skip fi; i++
                    :: else -> break
                    od;
                    i = 0;
                    assert(cycleIsRemembered);                                     /* P1 */
                    cycleIsDeclared = onAwaitCycle[inst] || slowCfg; assert(cycleIsDeclared); /* P1 */
                    rememberedHit = rememberedHit | (1 << t);
                    TR(printf("T%d: waiting for ticket %d closes remembered cycle %d\n", t, k, sgn));
#ifndef REMEMBERED_PROVEN
                    /* still only a possible cycle: each build on the chain is marked with its
                     * signature (possibleCycle), not as proven; their waiters look again */
                    do
                    :: i < wLen -> if :: kpos[wCh[i]] == 0 -> kpos[wCh[i]] = sgn :: else -> skip fi; i++
                    :: else -> break
                    od;
                    i = 0
#else
                    chainMask(kc)                  /* the broken variant: marked as proven     */
#endif
                :: else -> skip
                fi;
                x = 0; sgn = 0;
#else
                skip
#endif
            :: else -> skip
            fi;
            if
            :: w == W_NONE || w == W_POSSIBLE ->   /* register and suspend                     */
                waitsK[t] = k; winh[t] = mi; wfirst[t] = mf;
                waiters[k] = waiters[k] | (1 << t); regAdd(t);
                susp[t] = true; resumedBy[t] = 0; resumes[t] = 0; fires[t] = 0;
#ifndef NO_DEADLINE
                if
                :: w == W_POSSIBLE -> dlArm(t)     /* deadlines[waiter] = Deadline()           */
                :: else -> skip
                fi;
#endif
                provenAtOnce = !(atOnceCfg && w == W_POSSIBLE); assert(provenAtOnce);
                TR(printf("T%d waits for ticket %d (%d: 1 = possible cycle, deadline)\n", t, k, w));
                ghost()
            :: else -> skip
            fi;
            wLen = 0
        };
        if
#ifndef REMEMBERED_PROVEN
        :: w == W_REMEMBERED ->                /* .rememberedCycle: thrown at once, no MARK   */
            unlockM(t); clearPath(); w = W_NONE; k = 0; err = E_CYC; goto RET
        :: w == W_PROVEN ->
#else
        :: w == W_PROVEN || w == W_REMEMBERED ->
#endif
            unlockM(t); clearPath(); w = W_NONE; goto MARK
        :: else ->
            w = W_NONE; unlockM(t)
        fi
    };

SUSP:   /* suspended until finish, the cancellation handler or the deadline resumes it */
    if
    :: resumedBy[t] != 0 -> skip
    :: atomic {
#if defined(EARLY_DEADLINE) || defined(SLOW)
        dl[t] && susp[t] && M == 0 ->            /* a deadline shorter than a factory's run     */
#else
        (fireM & (1 << t)) && M == 0 ->          /* the deadline passed (see ghost())           */
#endif
        M = t;
        d_step {                   /* expire */
            reportedAtOnce = !provenCfg; assert(reportedAtOnce);
            fires[t]++;
            withinFires = (maxFires == 0 || fires[t] <= maxFires); assert(withinFires); /* P6 */
            dlPassed(t);
            if
            :: waitsK[t] == k ->   /* still waiting: does the wait still close a cycle?          */
                closure(t, k, winh[t], w);
                if
                :: w == W_NONE -> dlRemove(t);     /* the deadline is dropped; t waits on       */
                    TR(printf("T%d: deadline passes, no cycle: dropped\n", t))
                :: else ->
                    deeper(t, later);
                    if
                    :: later && ddef[t] < MAXDEFER ->  /* gives way: re-armed; t waits on      */
                        dlRearm(t); rearmHit = rearmHit | (1 << t);
                        TR(printf("T%d: deadline passes, gives way (deferrals %d)\n", t, ddef[t]))
                    :: else ->
                        cycleIsDeclared = onAwaitCycle[inst] || slowCfg;
                        assert(cycleIsDeclared);                                    /* P1 */
                        unregister(t);
                        /* the cycle's signature marks each build on the chain */
                        signature(sgn);
                        TR(printf("T%d: deadline passes: circularDependency for %d, cycle %d\n", t, inst, sgn));
                        i = 0;
                        do
                        :: i < wLen -> if :: kpos[wCh[i]] == 0 -> kpos[wCh[i]] = sgn :: else -> skip fi; i++
                        :: else -> break
                        od;
                        i = 0; x = 0;
                        do
                        :: i < 4 ->
                            if
                            :: x == 0 && (sigSeen[i] == sgn || sigSeen[i] == 0) -> sigSeen[i] = sgn; x = 1
                            :: else -> skip
                            fi;
                            i++
                        :: else -> break
                        od;
                        assert(x == 1); i = 0; x = 0; sgn = 0;
                        dlFails++;
                        withinDeadlines = (maxDeadlines == 0 || dlFails <= maxDeadlines);
                        assert(withinDeadlines);                                    /* P6 */
                        susp[t] = false; resumedBy[t] = RB_DEADLINE; resumes[t]++;
                        assert(resumes[t] == 1);                                    /* P4 */
                        deadlineHit = deadlineHit | (1 << t)
                    fi
                fi
            :: else -> skip        /* (not reached: the step runs only while t is registered)   */
            fi;
            w = W_NONE; later = 0; wLen = 0;
            ghost()
        };
        unlockM(t)
       };
       goto SUSP
    fi;
    atomic {
        clearPath(); fires[t] = 0;
        if
        :: resumedBy[t] == RB_OK -> k = 0; goto AGAIN
        :: resumedBy[t] == RB_CYC -> k = 0; err = E_CYC; goto HANDED
        :: resumedBy[t] == RB_CANCEL -> k = 0; err = E_CANC; goto RET
        :: resumedBy[t] == RB_DEADLINE -> k = 0; err = E_CYC; goto RET
        fi
    };

MARK:   /* cycleError(path, on: chain), under the mutex again: each build on the chain is marked */
    lockM(t);
    d_step {
        i = 1;
        do
        :: i < MAXT -> if :: kc & (1 << i) -> kprov[i] = true :: else -> skip fi; i++
        :: else -> break
        od;
        i = 0; kc = 0; k = 0; err = E_CYC;
        unlockM(t)
    };
    goto RET;

OWNMARK: /* markProvenCycle(error, on: frames), under the mutex: the builds the task's own frames
          * run, from the innermost one running inst (fs[oc]) to the top, are on the cycle */
    lockM(t);
    d_step {
        i = oc;
        do
        :: i < sp ->
            if
            :: lifetime[finst[fs[i]]] == SHARED ->
                kownc[fticket[fs[i]]] = true;
#ifndef OWN_CYCLE_UNMARKED
                kprov[fticket[fs[i]]] = true
#else
                skip                               /* the broken variant: the old checkOwnPath  */
#endif
            :: else -> skip
            fi;
            i++
        :: else -> break
        od;
        i = 0; oc = 0;
        unlockM(t)
    };
    goto RET;

AGAIN:  /* look again: the storage, or the transient's chain */
    if
    :: lifetime[inst] == TRANSIENT -> goto TSCAN
    :: else -> goto LOOP
    fi;

HANDED: /* the build failed, marked by a proven report: its waiters throw it */
    atomic { cycleIsHanded = onAwaitCycle[inst]; assert(cycleIsHanded) };              /* P1 */
    goto RET;

HWAIT:  /* until the awaited Task {}s end; the first error is rethrown */
    atomic {
        awaitH[t] == 0 -> err = herr[t]; herr[t] = 0; ghost();
        if
        :: err == 0 -> goto NEXT
        :: else -> goto COMPLETE
        fi
    };

RUN:    /* a transient: a new frame, no ticket */
    atomic {
        assert(nextF < MAXF);
        f = nextF; nextF++;
        finst[f] = inst; fowner[f] = t;
        openP = openP | (1 << f); openR = openR | (1 << f)
    };

PUSH:   /* runAsyncFactory: AsyncResolutionPath.$top.withValue(frame) { factory() } */
    atomic {
        assert(sp < MAXD);
        if
        :: lifetime[inst] == SHARED ->
            oneRun = (runs[inst] == 0 || failedRun[inst]); assert(oneRun)            /* P3 */
        :: else -> skip
        fi;
        runs[inst]++; frun[f] = runs[inst];
        /* AsyncFrame(parent: openTop): the task's top, or the nearest open frame above it */
        if
        :: sp > 0 -> fpar[f] = fs[sp-1]
        :: sp == 0 && itop[t] != 0 ->
            x = itop[t];
            do
            :: x != 0 && !(openP & (1 << x)) -> CLOSED_STEP(x)
            :: else -> break
            od;
            fpar[f] = x; x = 0
        :: else -> skip
        fi;
        fs[sp] = f; pc[sp] = 0; sp++;
        f = 0; k = 0; inst = 0
    };

NEXT:   /* the factory's next step */
    atomic {
        f = fs[sp-1];
        if
        :: pc[sp-1] < nsteps[finst[f]] ->
            op = sop[finst[f]*MAXS + pc[sp-1]]; x = sarg[finst[f]*MAXS + pc[sp-1]];
            pc[sp-1]++;
            if
            :: op == DEP || op == TRY -> inst = x; x = 0; op = 0; f = 0; goto CALL
            :: op == FAIL ->
                if
                :: frun[f] <= x ->                                        /* it throws */
                    TR(printf("T%d: factory of %d (frame %d) throws\n", t, finst[f], f));
                    x = 0; op = 0; err = E_FAIL; goto COMPLETE
                :: else -> x = 0; op = 0; f = 0; goto NEXT
                fi
            :: op == AWAIT_U ->   /* try await handle.value for each Task {} x's factory started */
                i = 1;
                do
                :: i < nextTask ->
                    if
                    :: uby[i] != 0 && finst[uby[i]] == x && res[i] == 0 -> awaitH[t] = awaitH[t] | (1 << i)
                    :: uby[i] != 0 && finst[uby[i]] == x && res[i] != 0 && res[i] != R_OK && herr[t] == 0 ->
                        herr[t] = res[i]
                    :: else -> skip
                    fi;
                    i++
                :: else -> break
                od;
                i = 0; x = 0; op = 0; f = 0;
                ghost();
                goto HWAIT
            :: op == SPAWN_S || op == SPAWN_U ->
                if
                :: nextTask <= NT ->
                    i = nextTask; nextTask++; job[i] = x;
                    itop[i] = f;                          /* the task-local top it inherits */
                    if
                    :: op == SPAWN_S -> sparent[i] = f; fkids[f] = fkids[f] | (1 << i)
                    :: else -> uby[i] = f
                    fi;
                    running++;
                    TR(printf("T%d starts T%d (%d: 3 = structured, 4 = Task {}) to resolve %d\n", t, i, op, x));
                    run Task(i)
                :: else -> assert(budgetCfg); budgetHit = true   /* the last generation starts none */
                fi;
                i = 0; x = 0; op = 0; f = 0;
                goto NEXT
            fi
        :: else -> f = 0; err = 0          /* the factory returns                               */
        fi
    };

COMPLETE:   /* the factory returned (err == 0) or threw (err != 0) */
    f = fs[sp-1];
    if
    :: err != 0 && fkids[f] != 0 ->       /* a throw cancels the live structured children    */
        cancelTasks(fkids[f], cn);
        lockM(t);
        atomic { handlers(cn); unlockM(t) }
    :: else -> skip
    fi;
    if
    :: fkids[f] != 0 ->                   /* and the factory awaits them before it returns    */
        d_step { awaitF[t] = f; ghost() };
        d_step { fkids[f] == 0 -> awaitF[t] = 0; ghost() }
    :: else -> skip
    fi;
    d_step {
        if
        :: err == 0 -> err = fkerr[f]     /* `try await child` rethrows its error            */
        :: else -> skip
        fi;
        fkerr[f] = 0;
        openR = openR & ~(1 << f);
#ifndef NEVER_CLOSE
        openP = openP & ~(1 << f);       /* AsyncFrame.close()                               */
        if
        :: fticket[f] != 0 -> pend[fticket[f]] = true   /* the build's or close ticket's finish */
        :: else -> skip
        fi;
#else
        if
        :: lifetime[finst[f]] == SHARED -> pend[fticket[f]] = true
        :: else -> skip
        fi;
#endif
        sp--; fs[sp] = 0; pc[sp] = 0;
        k = fticket[f];
        ghost()
    };
    if
    :: lifetime[finst[f]] == TRANSIENT ->
#ifndef NEVER_CLOSE
        if
        :: k != 0 ->                      /* frameClosed: finish the close ticket              */
            lockM(t);
            d_step { fticket[f] = 0; finishK(k, 0); ghost() };
            unlockM(t)
        :: else -> skip
        fi;
#endif
        f = 0; k = 0;
        goto RET
    :: else -> skip
    fi;

FINISH: /* finishBuild / failBuild -> BuildCoordinator.finish(failed:) */
    lockM(t);
    d_step {
        inst = finst[f];
        if
        :: err == 0 ->
            oneBuild = !built[inst]; assert(oneBuild);                                 /* P3 */
            built[inst] = true; value[inst] = k; builds[inst]++
        :: else -> failedRun[inst] = true
        fi;
        cellTicket[inst] = 0;
        finishK(k, err);
        TR(printf("T%d finishes ticket %d of %d (error %d; hands %d)\n", t, k, inst, err, kfail[k]));
        ghost();
        x = k; f = 0; k = 0
    };
    unlockM(t);
    if
    :: err == 0 -> goto RETVAL
    :: else -> x = 0; goto RET
    fi;

RETVAL: /* the singleton's instance: build x */
    atomic {
        if
        :: got[inst] == 0 -> got[inst] = x
        :: else -> sameValue = (got[inst] == x); assert(sameValue)                     /* P3 */
        fi;
        x = 0; err = 0
    };

RET:    /* back to the caller: the factory that asked (try / try?), or the task's end */
    if
    :: sp == 0 -> goto END
    :: else ->
        atomic {
            op = sop[finst[fs[sp-1]]*MAXS + pc[sp-1] - 1];
            if
            :: err != 0 && op == TRY -> err = 0          /* try?: the factory goes on          */
            :: else -> skip
            fi;
            op = 0; inst = 0;
            if
            :: err == 0 -> goto NEXT
            :: else -> goto COMPLETE
            fi
        }
    fi;

END:
    atomic {
        if
        :: err == 0 -> res[t] = R_OK
        :: else -> res[t] = err
        fi;
        TR(printf("T%d ends: %d (1 ok, 2 cycle, 3 cancelled, 4 failed)\n", t, res[t]));
        if
        :: sparent[t] != 0 ->
            fkids[sparent[t]] = fkids[sparent[t]] & ~(1 << t);
            if
            :: err != 0 && fkerr[sparent[t]] == 0 -> fkerr[sparent[t]] = err
            :: else -> skip
            fi
        :: else -> skip
        fi;
        i = 1;                            /* the tasks that await this one's handle    */
        do
        :: i <= NT ->
            if
            :: awaitH[i] & (1 << t) ->
                awaitH[i] = awaitH[i] & ~(1 << t);
                if :: err != 0 && herr[i] == 0 -> herr[i] = err :: else -> skip fi
            :: else -> skip
            fi;
            i++
        :: else -> break
        od;
        i = 0;
        running--;
        ghost();
        err = 0; inst = 0; x = 0; f = 0; k = 0
    }
}

/* Task.cancel() of task w, at any moment once it exists: the flag (w and its structured
 * descendants), then the cancellation handlers under M. */
proctype Cancel(byte w)
{
    byte cn;
end:
    w < nextTask;
    cancelTasks(1 << w, cn);
    lockM(CANCELLER);
    atomic { handlers(cn); unlockM(CANCELLER) }
}

/* I1: a waiter's edge points at an open ticket. */
#define liveEdge(u) ((u) >= MAXNT || waitsK[u] == 0 || !finished[waitsK[u]])
#define I1 (liveEdge(1) && liveEdge(2) && liveEdge(3) && liveEdge(4) && liveEdge(5) && liveEdge(6) && liveEdge(7))
active proctype Monitor()
{
end:
    atomic { !I1 -> assert(I1) }
}

#ifdef PROBE
/* Vacuity probe (by hand, not in check.sh): `spin -DPROBE='expr' -a ...` fails iff a state
 * with expr is reachable; the trail shows how. */
active proctype Probe()
{
end:
    atomic { (PROBE) -> assert(false) }
}
#endif

init
{
    byte a, b, x;
    d_step {
        maxFires = 1;                              /* the default; a configuration may change it */
        configure();
#ifdef FIRES
        maxFires = FIRES;                          /* by hand: -DFIRES=n, -DDEADLINES=n         */
#endif
#ifdef DEADLINES
        maxDeadlines = DEADLINES;
#endif
#ifdef CANCELS
        cancelCfg = true;                          /* by hand: -DCANCELS=n (expect() skipped)    */
#endif
        /* the await graph: i -> j when i's factory resolves j itself (DEP, TRY) or in a
         * structured child it awaits (SPAWN_S); an unstructured Task {} is not awaited. */
        a = 0;
        do
        :: a < MAXI ->
            b = 0;
            do
            :: b < nsteps[a] ->
                if
                :: sop[a*MAXS + b] == DEP || sop[a*MAXS + b] == TRY || sop[a*MAXS + b] == SPAWN_S ->
                    reach[a*MAXI + sarg[a*MAXS + b]] = true
                :: sop[a*MAXS + b] == FAIL -> failCfg = true
                :: sop[a*MAXS + b] == AWAIT_U ->      /* the Task {}s that factory starts      */
                    x = 0;
                    do
                    :: x < nsteps[sarg[a*MAXS + b]] ->
                        if
                        :: sop[sarg[a*MAXS + b]*MAXS + x] == SPAWN_U ->
                            reach[a*MAXI + sarg[sarg[a*MAXS + b]*MAXS + x]] = true
                        :: else -> skip
                        fi;
                        x++
                    :: else -> break
                    od;
                    x = 0
                :: else -> skip
                fi;
                b++
            :: else -> break
            od;
            a++
        :: else -> break
        od;
        x = 0;
        do
        :: x < MAXI ->                             /* transitive closure (Warshall)           */
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
        :: a < MAXI -> onAwaitCycle[a] = reach[a*MAXI + a]; cycleCfg = cycleCfg || onAwaitCycle[a]; a++
        :: else -> break
        od;
        a = 0; b = 0; x = 0
    };
    atomic {
        a = 1;
        do
        :: a <= NTOP -> run Task(a); a++
        :: else -> break
        od;
        running = NTOP; nextTask = NTOP + 1; a = 0;
        EVENTS
    };
    running == 0;                                  /* P2: every task ends                     */
    d_step {
        /* P1: without a declared cycle, a cancellation or a factory's own failure, every task
         * succeeded */
        allSucceeded = true; a = 1;
        do
        :: a < nextTask -> allSucceeded = allSucceeded && res[a] == R_OK; a++
        :: else -> break
        od;
        allSucceeded = allSucceeded || cycleCfg || cancelCfg || failCfg;
        assert(allSucceeded);
        a = 0
    };
#ifndef CANCELS
    expect()                                       /* how each task must end                  */
#else
    skip                                           /* (a cancellation changes that)           */
#endif
}
