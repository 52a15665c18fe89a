package dev.switchboard.actor;

/**
 * The end of an actor: setting TERMINATED, turning what is queued into dead letters, running {@code onExit()},
 * releasing the actor's finish once, and the recovery when that drain itself fails.
 *
 * <p>Owns the order of an actor's end. May touch the cell's status word through its primitives
 * ({@code orStatus}, {@code casStatus}, {@code clearScheduled}, {@code reacquire}, {@code releaseWith}), its
 * activation, its timers, its supervised children, its awaited replies and its dispatch. Called by whatever ends an
 * actor: {@code exit()}, a failure ({@link ActorFailures}), a stop ({@link ActorStop}, {@link Supervision}), a close
 * ({@link Activation}), and by the cell when the holder of the token finds the actor terminated.
 */
final class ActorTermination {
    /*
     * Implementation notes. TERMINATED is set once (by a read-modify-write of the status word); whoever holds the
     * SCHEDULED token then, or takes it next, drains: the queued envelopes become dead letters, onExit() runs, the
     * answers still awaited hold the finish open (AwaitedReplies.holdUnansweredOf), the activation's spawn group is
     * sealed, and RELEASED (with GONE when no child is alive) is published in the same atomic that gives the token
     * up (ActorCell.releaseWith). After that the activation is completed, the enclosing finish then waits only for
     * the actor's children, and any thread that finds envelopes on a RELEASED actor takes the token only to drain
     * them; the loop repeats while messages keep arriving.
     *
     * The drain allocates (a dead letter's bookkeeping, the exit hook's own work), so it may throw, out of memory
     * say. Then drainOrRelease records the failure and releases the finish anyway, so that nothing waits for the
     * actor forever; after the token is given up nothing thrown may reach that recovery, which would give back a
     * token that may be another thread's by then (afterRelease).
     */

    private ActorTermination() {
    }

    /** Sets TERMINATED and {@code also}; drains the actor here if nobody holds its token. */
    static void terminate(ActorCell<?> actor, int also) {
        drainUnlessHeld(actor, actor.orStatus(ActorCell.TERMINATED | also));
    }

    /**
     * Sets TERMINATED unless it is set already, and returns whether this call set it; if it did, {@code first}
     * runs before the actor is drained (here, if nobody holds its token), so that what it marks is seen by the end.
     */
    static boolean terminateFirst(ActorCell<?> actor, Runnable first) {
        int s;
        do {
            s = actor.status();
            if ((s & ActorCell.TERMINATED) != 0) {
                return false;
            }
        } while (!actor.casStatus(s, s | ActorCell.TERMINATED));
        first.run();
        drainUnlessHeld(actor, s);
        return true;
    }

    /**
     * With the token held: terminates the actor (setting {@code also} too) and drains it here. What made it
     * terminate has been recorded by the caller ({@link ActorFailures}).
     */
    static void terminateHeld(ActorCell<?> actor, int also) {
        actor.orStatus(ActorCell.TERMINATED | also);
        drainOrRelease(actor);
    }

    /**
     * The runtime is being closed (called by the closing thread): terminate unless already terminated. Queued
     * messages and later sends become {@code RUNTIME_CLOSED} dead letters; if the token is free they are drained
     * here, otherwise by its holder.
     */
    static void terminateByClose(ActorCell<?> actor) {
        if (!actor.isTerminated()) {
            terminate(actor, ActorCell.BY_CLOSE);
        }
    }

    /**
     * Just terminated, with status {@code before}: drains the actor here unless the token was held then. If it was,
     * the holder drains when it is done (maybe only when a message stuck in the program's code returns), so the
     * senders waiting for room in a full bounded mailbox are woken now: they see the end, and their messages are
     * dead letters at once.
     */
    private static void drainUnlessHeld(ActorCell<?> actor, int before) {
        if ((before & ActorCell.SCHEDULED) == 0 && actor.reacquire()) {
            drainOrRelease(actor);
        } else if (actor.limit != null) {
            actor.limit.wakeAll();
        }
    }

    /**
     * With the token held on a terminated actor: drain it, or if even that fails (no memory for a dead letter's
     * bookkeeping, say), report the failure and release its finish, so that nothing waits for it forever.
     */
    static void drainOrRelease(ActorCell<?> actor) {
        try {
            drainTerminated(actor);
        } catch (Throwable t) {
            ActorFailures.add(actor.core(), t);
            if ((actor.orStatus(ActorCell.RELEASED) & ActorCell.RELEASED) == 0) {
                ActorTimers.cancelAll(actor.core());
                try {
                    AwaitedReplies.holdUnansweredOf(actor.core());
                } catch (Throwable again) {              // the finish then may not wait for those answers
                    ActorFailures.add(actor.core(), again);
                }
                actor.activation().sealSpawns();
                actor.activation().tryComplete();
            }
            actor.clearScheduled();
            if (actor.reacquire()) {             // a message that came meanwhile: one more try to count it
                try {
                    drainTerminated(actor);
                } catch (Throwable again) {
                    actor.clearScheduled();      // the failure is reported; give the token up
                }
            }
        }
    }

    /**
     * With the token held on a terminated actor: turn the mailbox into dead letters, release the finish once,
     * give the token up, and repeat while messages keep arriving.
     */
    static void drainTerminated(ActorCell<?> actor) {
        if ((actor.status() & ActorCell.RELEASED) == 0) {
            ActorTimers.cancelAll(actor.core());                 // first: nothing below can keep a timer sending
            Supervision.terminated(actor.core());                // its children end with it; a retry is dropped
        }
        boolean releasing;
        do {
            DeadLetterRouting.drainQueued(actor.core());
            if (actor.dispatch instanceof PolicyDispatch d) {
                d.terminated();
            }
            releasing = (actor.status() & ActorCell.RELEASED) == 0;
            if (releasing) {
                ActorLifecycle.runExitHook(actor.core());
                // before RELEASED: if it throws, drainOrRelease still releases
                AwaitedReplies.holdUnansweredOf(actor.core());
                Activation activation = actor.activation();
                activation.sealSpawns();
                actor.releaseWith(ActorCell.RELEASED | activation.goneWithRelease());
            } else {
                actor.clearScheduled();
            }
        } while (afterRelease(actor, releasing));
    }

    /**
     * With the token just given up: completes the activation if this thread has just released the actor (the
     * lingering task ends; the finish waits only for the actor's children now), then takes the token back if work
     * came meanwhile; returns whether it did. The token may be another thread's by now, so nothing thrown here may
     * reach {@link #drainOrRelease}, whose recovery gives a token back: it goes to the actor's finish, and what
     * came meanwhile is left to the next sender or holder.
     */
    private static boolean afterRelease(ActorCell<?> actor, boolean completes) {
        try {
            if (completes) {
                actor.activation().tryComplete();
            }
            return actor.reacquire();
        } catch (Throwable t) {
            try {
                ActorFailures.add(actor.core(), t);
            } catch (Throwable noMemory) {
                // the finish misses this failure; the token is not this thread's to give back any more
            }
            return false;
        }
    }
}
