package dev.switchboard.task;

/**
 * The classes the runtime needs to report a failure, loaded and initialized with {@link TaskRuntime} (its static
 * initializer calls {@link #load()}), not on first use: a class first used while the heap is exhausted fails to
 * load, its initialization error is thrown in place of the failure being reported, and the class stays unusable
 * for the life of the JVM.
 */
final class FailurePathClasses {
    private FailurePathClasses() {
    }

    /** Loads and initializes them; the actor package's are named, not referenced (tasks do not know actors). */
    static void load() {
        ClassLoader loader = FailurePathClasses.class.getClassLoader();
        for (String name : new String[] {
                "dev.switchboard.internal.Failures", "dev.switchboard.internal.RunQueue$Pump",
                "dev.switchboard.internal.Node$Rerun", "dev.switchboard.internal.Durations",
                "dev.switchboard.internal.WorkerWaits", "dev.switchboard.internal.ScopeFailures",
                "dev.switchboard.task.Sneaky", "dev.switchboard.task.MultiException",
                "dev.switchboard.task.FinishTimeoutException", "dev.switchboard.task.RuntimeClosedException",
                "dev.switchboard.task.FinishOutcome",
                "dev.switchboard.actor.ProcessingFailure", "dev.switchboard.actor.DeadLetter",
                "dev.switchboard.actor.DeadLetter$Reason", "dev.switchboard.actor.NoReplyException",
                "dev.switchboard.actor.StalledSelectorException", "dev.switchboard.actor.PendingReply"}) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
