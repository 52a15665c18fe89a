package dev.switchboard.task;

import dev.switchboard.internal.AsyncTask;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;

/** The task of an {@code async}, of a parallel loop's chunk and of an {@code asyncAwait} with no inputs. */
final class BodyTask extends AsyncTask {
    private final TaskBody body;

    BodyTask(Node completer, Scheduler scheduler, TaskBody body) {
        super(completer, scheduler);
        this.body = body;
    }

    /** Spawns {@code body} as a child of the current node: an async, or a chunk of a parallel loop. */
    static void spawn(Scheduler scheduler, TaskBody body) {
        scheduler.requireOpen("async");
        scheduler.submit(new BodyTask(scheduler.spawnContext().attachChild(), scheduler, body));
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
