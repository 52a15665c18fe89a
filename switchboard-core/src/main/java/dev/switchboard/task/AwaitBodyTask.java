package dev.switchboard.task;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;

/** The task of an {@code asyncAwait} and of an asynchronous {@link DataDrivenControl}'s body. */
final class AwaitBodyTask extends AwaitTask {
    private final TaskBody body;

    /**
     * @param creator the node that creates the task, and the inputs the awaited objects (see {@link AwaitTask}):
     *        only to describe the task in a hang report
     */
    AwaitBodyTask(Node completer, Scheduler scheduler, Node creator, TaskBody body, Object input0, Object input1,
            Object[] more) {
        super(completer, scheduler, creator, input0, input1, more);
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
