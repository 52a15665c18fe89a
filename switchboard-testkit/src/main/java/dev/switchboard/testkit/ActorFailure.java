package dev.switchboard.testkit;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.internal.SafeText;
import java.util.Objects;

/**
 * An exception that escaped an actor of a {@link TestKit}'s runtime, as the kit saw it happen: one that ended the
 * actor, and one its supervisor handled (a restart, a resume) alike.
 *
 * @param actor  the actor it escaped from; null for a failure outside every actor that reached no finish (a task
 *               the kit's runtime ran outside every finish)
 * @param cause  the exception
 * @param detail where it escaped and what happens next, as the runtime's failure log says it ("failed processing
 *               Order; restarting")
 */
public record ActorFailure(ActorRef<?> actor, Throwable cause, String detail) {
    public ActorFailure {
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        return actor + ": " + SafeText.of(cause) + " (" + detail + ")";
    }
}
