package dev.switchboard.actor;

/** The life cycle of an actor ([Unified] §2.2, §5.1.2): new → started ⇄ paused → terminated. */
public enum ActorState {
    /** Created, not started: messages sent to it wait in its mailbox. */
    NEW,
    /** Started: processes its messages. */
    STARTED,
    /** Started but paused: keeps receiving messages, processes none until resumed. */
    PAUSED,
    /** Exited (or failed): every further message is a dead letter. */
    TERMINATED
}
