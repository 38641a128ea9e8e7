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
 *
 * ---------------------------------------------------------------------------------------------
 * Model element                        Swift code it stands for
 * ---------------------------------------------------------------------------------------------
 * frame f: finst, fowner, fticket      AsyncFrame: its ResolutionFrame (key), taskID (the task
 *                                      that pushed it), the build's BuildTicket (ticket.frame)
 *                                      or, for a transient, its closeTicket
 * openP (bit f)                        !AsyncFrame.isClosed: the frame is in chains
 * own[t], inh[t]                       the task-local chain AsyncResolutionPath.top: frames with
 *                                      taskID == t (isOwn) and the others, inherited when the
 *                                      task was created (closed ones are skipped: nearestOpen)
 * label CALL                           resolveSharedAsync / checkTransientPath: checkOwnPath --
 *                                      the key on an own frame is a proven cycle, at once
 * label LOOP (one atomic step)         SharedInstanceStep / InstanceStorage.nextStep under the
 *                                      slot lock: built -> value; building -> wait for the
 *                                      ticket; empty -> a ticket naming a new frame, build
 * label TSCAN                          checkTransientPath's loop: the key on an inherited open
 *                                      frame -> ticketForClose (under M) and wait for it
 * label WAIT, inline closure           BuildCoordinator.waitAsync: finished -> look again (or
 *                                      throw the cycle failure); cancelled -> throw; the walk
 *                                      Graph.closure (the definite chain, which goes on past
 *                                      the first inherited frame; then every edge, depth
 *                                      first); proven -> circularDependency at once; else
 *                                      register (waits, inside, suspended) and suspend, with
 *                                      armDeadline when the cycle is possible
 * winh[t], wreg[t]                     SuspendedWait.inherited / Graph.inside: the waiter's
 *                                      inherited open frames, read when it starts to wait, and
 *                                      its place in the inside lists (registration order)
 * dord[t], inline dlArm                Graph.deadlines[t].order (deadlinesArmed), as a rank
 * dq[t], inline dlRearm                when the deadline passes: armed or re-armed last ->
 *                                      last (equal timeouts; see "The deadline" below)
 * deadline branch at SUSP              the deadline task and BuildCoordinator.expire: still
 *                                      registered and the walk still closes a cycle -> if
 *                                      laterDeadline (a task with a deadline armed later
 *                                      waits inside the frame of a ticket on the walk's
 *                                      chain) armDeadline(order:) again; else removeTaskWait
 *                                      and resume with circularDependency. No cycle: the
 *                                      deadline is dropped and the task waits on
 * label PUSH .. NEXT                   runAsyncFactory: the factory runs with its frame on top;
 *                                      its steps (resolveAsync, async let, Task {})
 * label COMPLETE                       the factory returned or threw: a throw cancels its live
 *                                      structured children; it awaits them; `defer
 *                                      frame.close()`; a transient's closeTicket is finished
 *                                      (BuildCoordinator.frameClosed)
 * label FINISH, inline finishK         InstanceStorage.finishBuild -> BuildCoordinator.finish:
 *                                      under M store the value (or not), clear the ticket, mark
 *                                      it finished with its cycle failure (if any), remove and
 *                                      resume every waiter
 * proctype Cancel, inline handlers     Task.cancel() on a top-level task (it reaches its
 *                                      structured descendants): the flag, then waitAsync's
 *                                      onCancel under M: remove the waiter, resume it with
 *                                      CancellationError
 * ---------------------------------------------------------------------------------------------
 * Broken variants (each must be caught; see check.sh):
 * -DINHERITED_NONBLOCKING   inherited frames do not block: the walk follows owners only, a
 *                           transient on an inherited frame runs again (the old hang).
 * -DINHERITED_DEFINITE      an inherited open frame counts as the waiter's own (the previous
 *                           `ownsForWaiter`): a proven cycle at once, no deadline.
 * -DNEVER_CLOSE             frames are never closed: inherited frames stay in chains forever.
 * -DNO_DEADLINE             a possible cycle waits without a deadline.
 * -DCANCEL_DOUBLE_RESUME    the cancellation handler resumes the waiter but leaves it
 *                           registered: `finish` (or the deadline) resumes it again.
 * -DCANCEL_NO_RESUME        the cancellation handler removes the waiter but never resumes it.
 * -DRACY_CLAIM              the empty-storage check and the claim are two steps.
 * -DNO_DEFER                expire without its rule 1 (the previous expire): a deadline never
 *                           defers to a later one; the false cycle of task_behind_cycle.
 * -DSTOP_AT_INHERITED       the definite chain stops at the first inherited frame (the previous
 *                           closure): a definite cycle through it waits for the deadline.
 * -DEARLY_DEADLINE          not a fault but a limit: the deadline may pass at any moment, also
 *                           while the build waited for is still making progress (a factory that
 *                           runs longer than Container.possibleCycleTimeout).
 * -DANY_ORDER               a limit: deadlines pass in any order among the stuck waiters (the
 *                           timers do not fire in the order they were armed).
 *
 * Properties (safety; pan is compiled with -DSAFETY):
 *   P1  No false cycle. At each origin of a cycle error (own frame, proven walk, deadline): the
 *       registration lies on a cycle of the await graph -- the declared dependencies with the
 *       structured-child awaits (`cycleIsDeclared`). A proven error is on a real cycle: with
 *       the wait added, the task is on a cycle of the ghost wait-for relation, in which a
 *       parent waits for the structured children it awaits (`cycleIsReal`). A cycle error
 *       handed on by a failed build is for a registration on, or depending on, such a cycle
 *       along failure-propagating edges (`cycleIsUpstream`). Without a declared cycle or a
 *       cancellation, every task succeeds (`allSucceeded`).
 *
 * The deadline: a deadline passes only when the waiter is stuck -- in the ghost relation it
 * reaches a cycle, or a wait nobody will resume -- i.e. the build it waits for can no longer
 * finish but for a deadline or a cancellation (the real deadline is assumed longer than any
 * factory runs while it makes progress). Unlike Promela's `timeout` this is local to the wait:
 * other tasks may still move, and a cancellation may come before or after it. All deadlines
 * have the same length, so they pass in the order they were armed, a re-armed one after every
 * one armed before it was re-armed (dq): a stuck waiter's deadline does not pass while a stuck
 * waiter's deadline that passes before it is still armed (fireM, computed by ghost()). A
 * re-armed deadline moves behind the others, so the re-arm is never a step that changes
 * nothing, and the deadline it deferred to (armed later, never deferring back) can pass.
 *   P2  No hang: SPIN's invalid-end-state check (every task ends; init sees running == 0). The
 *       configuration's expect() says which tasks must end with circularDependency.
 *   P3  One build per singleton: a factory runs again only after a failed run (`oneRun`), a
 *       value is stored once (`oneBuild`), every task gets the same instance (`sameValue`).
 *   P4  Each suspended wait is resumed exactly once (`resumes[u] == 1` at each resume), by
 *       finish, its cancellation or its deadline; none stays suspended (P2).
 *   P5  Proven at once. Where the configuration says every cycle is proven (provenCfg), no
 *       deadline passes (`reportedAtOnce`); where it says no wait is even a possible one
 *       (atOnceCfg), none is (`provenAtOnce`).
 *   Also: a waiter's edge always points at an open ticket (Monitor), the chain of definite
 *   edges never loops (`chainAcyclic`), tables never overflow, M is released by its holder.
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
bool reachF[MAXI * MAXI];         /* closure of its failure-propagating edges: DEP, SPAWN_S    */
bool onAwaitCycle[MAXI];          /* on a cycle of the await graph                             */
bool dependsOnCycle[MAXI];        /* on one, or reaches one over failure-propagating edges     */
bool cycleCfg;                    /* the await graph has a cycle                               */
bool cancelCfg;                   /* some task may be cancelled                                */
bool atOnceCfg;                   /* every cycle must be proven (no possible wait may occur)   */
bool provenCfg;                   /* every cycle must be reported at once: no deadline passes  */
bool budgetCfg;                   /* a factory may find no task id left (the generation bound) */

/* ---- storage of the singletons (WordLock) ------------------------------------------------- */
bool built[MAXI];
byte value[MAXI];                 /* the ticket whose build was stored                         */
byte cellTicket[MAXI];            /* InstanceStorage.ticket                                    */

/* ---- frames (AsyncFrame) -------------------------------------------------------------------- */
byte nextF = 1;
byte finst[MAXF];
byte fowner[MAXF];
byte fticket[MAXF];               /* a singleton's build ticket; a transient's closeTicket      */
short openP;                      /* bit f: f is open (not isClosed)                           */
short openR;                      /* ghost: bit f: f's factory has not returned                 */
byte fkids[MAXF];                 /* live structured children started in f                     */
byte fkerr[MAXF];                 /* the first error of one of them (what `try await` throws)  */

/* ---- tasks ---------------------------------------------------------------------------------- */
byte nextTask;
byte running;
short own[MAXNT];                 /* frames task t pushed and has not closed                   */
short inh[MAXNT];                 /* frames task t inherited (filtered by openP when read)     */
byte sparent[MAXNT];              /* the frame that awaits structured child t; 0 otherwise     */
byte awaitF[MAXNT];               /* ghost: t awaits the structured children of this frame     */
byte res[MAXNT];                  /* R_OK, E_CYC, E_CANC; 0 = not ended                        */
byte cancelled;                   /* bit t: Task.isCancelled                                    */

/* ---- tickets (BuildTicket) ------------------------------------------------------------------ */
byte nextT = 1;
byte kframe[MAXT];                /* ticket.frame (its owner is fowner[kframe[k]])             */
bool finished[MAXT];              /* guarded by M                                              */
byte kfail[MAXT];                 /* ticket.failure: E_CYC or 0                                */
byte waiters[MAXT];               /* bit set of registered waiters, guarded by M               */
bool pend[MAXT];                  /* ghost: the frame closed and finish is on its way          */

/* ---- BuildCoordinator (guarded by M) -------------------------------------------------------- */
byte M;
byte waitsK[MAXNT];               /* Graph.waits                                               */
short winh[MAXNT];                /* the registration's inherited frames (Graph.inside)        */
byte dord[MAXNT];                 /* t's deadline (Graph.deadlines[t]): its order, as a rank    */
                                  /* among the armed ones (1 = armed first); 0 = none          */
byte dq[MAXNT];                   /* its place in the order the armed deadlines pass: armed or  */
                                  /* re-armed last -> last (a rank too)                        */
byte ndl;                         /* deadlines armed                                           */
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
byte rearmHit;                    /* bit t: t's deadline was re-armed (expire's rule 1)         */

/* scratch of deterministic computations (d_step only) */
hidden byte gi, gx, gk, gf, wk, wn, wx, wy, wi, wr, wC, wPC, dsp, di, later, ci, cj, cm;
hidden byte dfrom[MAXT], dstk[MAXT];
hidden byte cycleIsDeclared, cycleIsReal, cycleIsUpstream, oneRun, oneBuild, sameValue;
hidden byte chainAcyclic, allSucceeded, provenAtOnce, reportedAtOnce, expected;

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
    /* the deadlines that may pass now: a stuck waiter's, unless a stuck waiter's deadline that
     * passes before it (armed or re-armed earlier) is still armed */
    fireM = 0; gi = 1;
    do
    :: gi <= NT ->
        if
        :: dq[gi] != 0 && susp[gi] && (stuckM & (1 << gi)) ->
            gk = 1; gx = 1;
            do
            :: gx <= NT ->
                if
                :: dq[gx] != 0 && dq[gx] < dq[gi] && (stuckM & (1 << gx)) -> gk = 0
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
 * tickets of the proven chain, the remembered chain or the path found in wC (what `expire`
 * hands to laterDeadline). */
inline closure(W, K0, MI, out) {
    out = W_NONE; wk = K0; wn = 0; wC = 0; wPC = 0; chainAcyclic = true;
    do
    :: wC = wC | (1 << wk);
       if
       :: fowner[kframe[wk]] == W -> out = W_PROVEN; break
       :: else -> skip
       fi;
       if
       :: wPC == 0 && (MI & (1 << kframe[wk])) ->
#if defined(INHERITED_DEFINITE)
           out = W_PROVEN; break                   /* the old ownsForWaiter                     */
#elif defined(STOP_AT_INHERITED)
           out = W_POSSIBLE; break                 /* the old walk: it stops here               */
#else
           wPC = wC                                /* possible; the chain may still prove one   */
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
    :: out == W_NONE && wPC != 0 -> out = W_POSSIBLE; wC = wPC
    :: else -> skip
    fi;
#if !defined(INHERITED_DEFINITE) && !defined(INHERITED_NONBLOCKING)
    if
    :: out == W_NONE ->
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
        :: wx != 0 ->               /* the path back to K0 */
            out = W_POSSIBLE; wC = 0;
            do
            :: wC = wC | (1 << wx);
               if
               :: wx == K0 -> break
               :: else -> wx = dfrom[wx]
               fi
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
    wk = 0; wn = 0; wx = 0; wy = 0; wi = 0; wr = 0; wPC = 0; dsp = 0
}

/* Graph.laterDeadline: does a task other than W, with a deadline armed later than W's, wait
 * inside (inherited) the frame of a ticket in C? */
inline laterDeadline(W, C, out) {
    out = false;
#ifndef NO_DEFER
    wk = 1;
    do
    :: wk < nextT ->
        if
        :: C & (1 << wk) ->
            wi = 1;
            do
            :: wi <= NT ->
                if
                :: wi != W && waitsK[wi] != 0 && (winh[wi] & (1 << kframe[wk])) && dord[wi] > dord[W] ->
                    out = true
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
    wk = 0; wi = 0
#endif
}

/* armDeadline, first time: the next order; it passes after every deadline armed before it */
inline dlArm(u) { ndl++; dord[u] = ndl; dq[u] = ndl }

/* armDeadline(order:), from expire: the same order; it passes after every deadline armed now */
inline dlRearm(u) {
#ifndef ANY_ORDER
    di = 1;
    do
    :: di <= NT -> if :: dq[di] > dq[u] -> dq[di]-- :: else -> skip fi; di++
    :: else -> break
    od;
    dq[u] = ndl; di = 0
#else
    skip                        /* nothing changes: the deadline stays where it was          */
#endif
}

/* the deadline is cancelled or dropped (Graph.deadlines[u] = nil) */
inline dlRemove(u) {
    if
    :: dord[u] != 0 ->
        di = 1;
        do
        :: di <= NT ->
            if :: dord[di] > dord[u] -> dord[di]-- :: else -> skip fi;
            if :: dq[di] > dq[u] -> dq[di]-- :: else -> skip fi;
            di++
        :: else -> break
        od;
        dord[u] = 0; dq[u] = 0; ndl--; di = 0
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

/* finish(K): mark it finished with its failure, remove every waiter's registration (edge,
 * inside entries, deadline) and resume it (after M in Swift; here in the same step). */
inline finishK(K, fail) {
    finished[K] = true; kfail[K] = fail; pend[K] = false;
    gi = 1;
    do
    :: gi <= NT ->
        if
        :: waiters[K] & (1 << gi) ->
            assert(waitsK[gi] == K);
            waitsK[gi] = 0; winh[gi] = 0; dlRemove(gi); regRemove(gi); susp[gi] = false;
            if
            :: fail == E_CYC -> resumedBy[gi] = RB_CYC
            :: else -> resumedBy[gi] = RB_OK
            fi;
            resumes[gi]++; assert(resumes[gi] == 1)                                     /* P4 */
        :: else -> skip
        fi;
        gi++
    :: else -> break
    od;
    waiters[K] = 0; gi = 0
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
                cj = waitsK[ci];
                waiters[cj] = waiters[cj] & ~(1 << ci); waitsK[ci] = 0; winh[ci] = 0;
                dlRemove(ci); regRemove(ci);
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

proctype Task(byte t)
{
    byte sp;                      /* own frames pushed                                         */
    byte fs[MAXD];                /* own frames, innermost last                                */
    byte pc[MAXD];                /* next step of each own frame's factory                     */
    byte inst, k, f, x, op, i, err, w, cn;
    short mi;                     /* inherited open frames, read before a wait                 */

    inst = job[t];

CALL:   /* resolveAsync(inst): checkOwnPath -- a factory of this task runs inst: proven cycle */
    atomic {
        x = 0; i = 0;
        do
        :: i < sp -> if :: finst[fs[i]] == inst -> x = 1 :: else -> skip fi; i++
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
        goto RET
    :: else -> skip
    fi;
    if
    :: lifetime[inst] == TRANSIENT -> goto TSCAN
    :: else -> goto LOOP
    fi;

TSCAN:  /* checkTransientPath: a factory this task inherited runs inst? wait for it to close */
    atomic {
        f = 0; i = 1;
        do
        :: i < MAXF ->
            if :: (inh[t] & openP & (1 << i)) && finst[i] == inst -> f = i :: else -> skip fi;
            i++
        :: else -> break
        od;
        i = 0
    };
#ifdef INHERITED_NONBLOCKING
    f = 0;
#endif
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
            claim(); goto PUSH
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

WAIT:   /* BuildCoordinator.waitAsync(for: k) */
    atomic {
#ifdef INHERITED_NONBLOCKING
        mi = 0
#else
        mi = inh[t] & openP        /* chain.filter { !$0.isOwn(by: taskID) } (open frames)      */
#endif
    };
    lockM(t);
    atomic {
        if
        :: finished[k] ->
            unlockM(t); mi = 0;
            if
            :: kfail[k] == E_CYC -> k = 0; err = E_CYC; goto HANDED
            :: else -> k = 0; goto AGAIN
            fi
        :: !finished[k] && (cancelled & (1 << t)) ->
            unlockM(t); k = 0; mi = 0; err = E_CANC; goto RET
        :: else -> skip
        fi;
        d_step { closure(t, k, mi, w) };
        if
        :: w == W_PROVEN ->        /* circularDependency at once: a real cycle                  */
            d_step {
                cycleIsDeclared = onAwaitCycle[inst]; assert(cycleIsDeclared);    /* P1 */
                x = fowner[kframe[k]];
                cycleIsReal = ((openR & (1 << kframe[k])) != 0) && ((g[x] & (1 << t)) != 0);
                assert(cycleIsReal);                                               /* P1 */
                provenHit = provenHit | (1 << t);
                x = 0; w = W_NONE; mi = 0; err = E_CYC
            };
            unlockM(t); k = 0;
            goto RET
        :: else ->                 /* register and suspend                                       */
            d_step {
                waitsK[t] = k; winh[t] = mi; waiters[k] = waiters[k] | (1 << t); regAdd(t);
                susp[t] = true; resumedBy[t] = 0; resumes[t] = 0;
#ifndef NO_DEADLINE
                if
                :: w == W_POSSIBLE -> dlArm(t)     /* armDeadline                               */
                :: else -> skip
                fi;
#endif
                provenAtOnce = !(atOnceCfg && w == W_POSSIBLE); assert(provenAtOnce);
                w = W_NONE; mi = 0;
                ghost()
            };
            unlockM(t)
        fi
    };

SUSP:   /* suspended until finish, the cancellation handler or the deadline resumes it */
    if
    :: resumedBy[t] != 0 -> skip
    :: atomic {
#if defined(EARLY_DEADLINE)
        dord[t] != 0 && susp[t] && M == 0 ->     /* a deadline shorter than a factory's run     */
#elif defined(ANY_ORDER)
        dord[t] != 0 && susp[t] && (stuckM & (1 << t)) && M == 0 ->    /* in any order          */
#else
        (fireM & (1 << t)) && M == 0 ->          /* the deadline passed (see ghost())           */
#endif
        M = t;
        d_step {                   /* expire */
            reportedAtOnce = !provenCfg; assert(reportedAtOnce);
            if
            :: waitsK[t] == k ->   /* still waiting: does the wait still close a cycle?          */
                closure(t, k, winh[t], w);
                if
                :: w == W_NONE -> dlRemove(t)      /* the deadline is dropped; t waits on       */
                :: else ->
                    laterDeadline(t, wC, later);
                    if
                    :: later ->                    /* re-armed, its order kept; t waits on      */
                        dlRearm(t); rearmHit = rearmHit | (1 << t)
                    :: else ->
                        cycleIsDeclared = onAwaitCycle[inst]; assert(cycleIsDeclared); /* P1 */
                        waiters[k] = waiters[k] & ~(1 << t); waitsK[t] = 0; winh[t] = 0;
                        dlRemove(t); regRemove(t);
                        susp[t] = false; resumedBy[t] = RB_DEADLINE; resumes[t]++;
                        assert(resumes[t] == 1);                                    /* P4 */
                        deadlineHit = deadlineHit | (1 << t)
                    fi
                fi
            :: else -> dlRemove(t)
            fi;
            w = W_NONE; wC = 0; later = 0;
            ghost()
        };
        unlockM(t)
       };
       goto SUSP
    fi;
    atomic {
        if
        :: resumedBy[t] == RB_OK -> k = 0; goto AGAIN
        :: resumedBy[t] == RB_CYC -> k = 0; err = E_CYC; goto HANDED
        :: resumedBy[t] == RB_CANCEL -> k = 0; err = E_CANC; goto RET
        :: resumedBy[t] == RB_DEADLINE -> k = 0; err = E_CYC; goto RET
        fi
    };

AGAIN:  /* look again: the storage, or the transient's chain */
    if
    :: lifetime[inst] == TRANSIENT -> goto TSCAN
    :: else -> goto LOOP
    fi;

HANDED: /* the build failed with a cycle error: its waiters throw it */
    atomic { cycleIsUpstream = dependsOnCycle[inst]; assert(cycleIsUpstream) };       /* P1 */
    goto RET;

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
            oneRun = (runs[inst] == 0 || failedRun[inst]); assert(oneRun);           /* P3 */
            runs[inst]++
        :: else -> skip
        fi;
        own[t] = own[t] | (1 << f); fs[sp] = f; pc[sp] = 0; sp++;
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
            :: op == SPAWN_S || op == SPAWN_U ->
                if
                :: nextTask <= NT ->
                    i = nextTask; nextTask++; job[i] = x;
                    inh[i] = own[t] | (inh[t] & openP);   /* the task-local chain it inherits */
                    if
                    :: op == SPAWN_S -> sparent[i] = f; fkids[f] = fkids[f] | (1 << i)
                    :: else -> skip
                    fi;
                    running++;
                    run Task(i)
                :: else -> assert(budgetCfg)    /* the last generation starts no further task */
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
        own[t] = own[t] & ~(1 << f); sp--; fs[sp] = 0; pc[sp] = 0;
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

FINISH: /* InstanceStorage.finishBuild -> BuildCoordinator.finish */
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
        if
        :: err == E_CYC -> finishK(k, E_CYC)
        :: else -> finishK(k, 0)
        fi;
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
        if
        :: sparent[t] != 0 ->
            fkids[sparent[t]] = fkids[sparent[t]] & ~(1 << t);
            if
            :: err != 0 && fkerr[sparent[t]] == 0 -> fkerr[sparent[t]] = err
            :: else -> skip
            fi
        :: else -> skip
        fi;
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
        configure();
        /* the await graph: i -> j when i's factory resolves j itself (DEP, TRY) or in a
         * structured child it awaits (SPAWN_S); an unstructured Task {} is not awaited. A
         * failure propagates over DEP and SPAWN_S edges (a TRY step catches it). */
        a = 0;
        do
        :: a < MAXI ->
            b = 0;
            do
            :: b < nsteps[a] ->
                if
                :: sop[a*MAXS + b] != SPAWN_U -> reach[a*MAXI + sarg[a*MAXS + b]] = true
                :: else -> skip
                fi;
                if
                :: sop[a*MAXS + b] == DEP || sop[a*MAXS + b] == SPAWN_S ->
                    reachF[a*MAXI + sarg[a*MAXS + b]] = true
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
        :: x < MAXI ->                             /* transitive closures (Warshall)          */
            a = 0;
            do
            :: a < MAXI ->
                b = 0;
                do
                :: b < MAXI ->
                    reach[a*MAXI + b] = reach[a*MAXI + b] || (reach[a*MAXI + x] && reach[x*MAXI + b]);
                    reachF[a*MAXI + b] = reachF[a*MAXI + b] || (reachF[a*MAXI + x] && reachF[x*MAXI + b]);
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
        a = 0;
        do
        :: a < MAXI ->
            dependsOnCycle[a] = onAwaitCycle[a];
            b = 0;
            do
            :: b < MAXI -> dependsOnCycle[a] = dependsOnCycle[a] || (reachF[a*MAXI + b] && onAwaitCycle[b]); b++
            :: else -> break
            od;
            a++
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
        /* P1: without a declared cycle or a cancellation, every task succeeded */
        allSucceeded = true; a = 1;
        do
        :: a < nextTask -> allSucceeded = allSucceeded && res[a] == R_OK; a++
        :: else -> break
        od;
        allSucceeded = allSucceeded || cycleCfg || cancelCfg;
        assert(allSucceeded);
        a = 0
    };
    expect()
}
