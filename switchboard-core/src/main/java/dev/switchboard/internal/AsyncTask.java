package dev.switchboard.internal;

/**
 * A task spawned by {@code async}, {@code future} or a parallel loop: runs its body once, records a failure in
 * its finish scope, and completes into its spawner once it and all its children have ended.
 */
public class AsyncTask extends Node {
    private final Runnable body;

    public AsyncTask(Node completer, Scheduler scheduler, Runnable body) {
        super(completer, scheduler);
        this.body = body;
    }

    @Override
    protected final void run() {
        try {
            body.run();
        } catch (Throwable t) {
            scope().addFailure(t);
        } finally {
            sealSpawns();
            tryComplete();
        }
    }
}
