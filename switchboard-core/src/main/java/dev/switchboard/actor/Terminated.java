package dev.switchboard.actor;

import dev.switchboard.internal.SafeText;

/**
 * That a watched actor has ended, and how: what a watcher's message is made from ({@code ActorCore.watch}) and
 * what {@link ActorRef#whenTerminated()} completes with.
 *
 * <pre>{@code
 * record WorkerGone(Terminated end) implements Msg {}
 *
 * protected void onStart() { watch(worker, WorkerGone::new); }
 * protected void process(Msg m) {
 *     switch (m) {
 *         case WorkerGone g when g.end().reason() == Terminated.Reason.FAILED -> log(g.end().failure());
 *         ...
 *     }
 * }
 * }</pre>
 *
 * @param actor   the reference of the actor that ended
 * @param reason  how it ended
 * @param failure what ended it, if it failed; null otherwise
 */
public record Terminated(ActorRef<?> actor, Reason reason, Throwable failure) {
    /** How an actor ended. */
    public enum Reason {
        /** It called {@code exit()}. */
        EXITED,
        /** An exception ended it: escaping {@code process}, {@code onStart()}, a reply handler or a guard. */
        FAILED,
        /** Its runtime was closed while it was alive. */
        RUNTIME_CLOSED,
        /**
         * It was stopped: by {@link ActorRef#stop()} or {@link ActorRef#stopNow()}, or by its supervisor (its
         * parent ended or restarted, or a strategy that stops it on a failure; then {@code failure} is that
         * failure).
         */
        STOPPED,
        /**
         * It lived at another place (a JVM of the program), which was lost: killed, frozen, or cut off; then
         * {@code failure} says why. What the actor did last is not known.
         */
        PLACE_LOST
    }

    /** {@code Terminated[actor=worker@3, reason=FAILED, failure=java.lang.IllegalStateException: ...]}. */
    @Override
    public String toString() {
        return "Terminated[actor=" + actor + ", reason=" + reason
                + (failure == null ? "" : ", failure=" + SafeText.of(failure))
                + "]";
    }
}
