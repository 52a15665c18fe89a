package dev.switchboard.actor;

import dev.switchboard.task.DataDrivenFuture;

/** A message sent with {@link ActorRef#request}: the message and the future its reply goes into. */
record Request(Object message, DataDrivenFuture<Object> reply) {
}
