package dev.switchboard.task;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;

/** The task of an {@code asyncAwait} and of an asynchronous {@link DataDrivenControl}'s body. */
final class AwaitBodyTask extends AwaitTask {
    private final TaskBody body;

    /**
     * @param creator the node that creates the task, and {@code inputs} the awaited objects: both only to describe
     *        the task in a hang report
     */
    AwaitBodyTask(Node completer, Scheduler scheduler, Node creator, TaskBody body, Object[] inputs) {
        super(completer, scheduler, creator, inputs);
        this.body = body;
    }

    @Override
    protected Object body() {
        return body;
    }

    @Override
    protected void runBody() throws Exception {
        body.run();
    }
}
