package dev.switchboard.actor;

/**
 * A message sent with {@link ActorRef#ask} or {@code awaitReply}, as it waits in a mailbox: the message and the
 * {@link ReplyTo} inside it, so that a request that becomes a dead letter fails its requester at once.
 */
record Request(Object message, ReplyTo<?> replyTo) {
}
