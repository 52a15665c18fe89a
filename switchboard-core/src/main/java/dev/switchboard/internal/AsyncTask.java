package dev.switchboard.internal;

/**
 * A task spawned by {@code async}, {@code future} or a parallel loop: runs its body once, records a failure in
 * its finish scope, and completes into its spawner once it and all its children have ended.
 *
 * <p>The body's type belongs to the package that spawns the task ({@code dev.switchboard.task}, above this
 * one): a subclass holds the body and runs it in {@link #runBody()}.
 */
public abstract class AsyncTask extends Node {
    protected AsyncTask(Node completer, Scheduler scheduler) {
        super(completer, scheduler);
    }

    /** The task's code (a lambda, usually), as given to the task. */
    protected abstract Object body();

    /** Runs {@link #body()}. Whatever it throws, checked or not, is the task's failure. */
    protected abstract void runBody() throws Exception;

    @Override
    public String describe() {
        Object o = owner();
        return "task running " + nameOf(body().getClass()) + (o != null ? " for " + o : "");
    }

    /** The body's class: the task, without keeping it or what the lambda captured. */
    @Override
    public Object origin() {
        return body().getClass();
    }

    /** A lambda's class name without the JVM's suffix: {@code Main (lambda)} for {@code Main$$Lambda/0x...}. */
    static String nameOf(Class<?> body) {
        String n = body.getName();
        int lambda = n.indexOf("$$Lambda");
        return lambda > 0 ? n.substring(n.lastIndexOf('.', lambda) + 1, lambda) + " (lambda)"
                : n.substring(n.lastIndexOf('.') + 1);
    }

    @Override
    protected final void run() {
        try {
            runBody();
        } catch (Throwable t) {
            scope().addTaskFailure(t);
        } finally {
            Thread.interrupted();      // an interrupt set by this task is not seen by the next one on this thread
            sealSpawns();
            tryComplete();
        }
    }
}
