package dev.switchboard.task;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;

/** The task of an {@code asyncAwait} and of an asynchronous {@link DataDrivenControl}'s body. */
final class AwaitBodyTask extends AwaitTask {
    private final TaskBody body;

    /**
     * @param inputs the awaited objects, kept only to describe this task in a hang report
     */
    AwaitBodyTask(Node completer, Scheduler scheduler, TaskBody body, Object[] inputs) {
        super(completer, scheduler, inputs);
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
