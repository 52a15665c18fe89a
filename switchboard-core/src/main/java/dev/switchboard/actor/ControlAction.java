package dev.switchboard.actor;

/**
 * An action of the runtime's own that runs on an actor's processing (the token held) ahead of its messages and
 * despite a pause, queued with {@link AwaitedReplies#control}: a supervisor's restart once its backoff has passed,
 * a failure a child escalated. If the actor ends first, {@link #dropped()} runs instead (on the thread that drains
 * it), so that nothing the action carried is lost.
 */
abstract class ControlAction implements Runnable {
    /** The actor ended before the action could run; the default does nothing. */
    void dropped() {
    }
}
