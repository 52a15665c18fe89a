package dev.switchboard.examples.selectors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.examples.Example;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * [Selectors] §5: message priorities without touching the processing logic. The selector has one mailbox per
 * priority, routes each message by its priority ({@link Selector#route}), and the default PRIORITY policy always
 * takes the next message from the most urgent non-empty mailbox. The tasks are all sent to the selector's
 * reference before it starts, so the order in which it processes them is the policy's alone.
 */
public final class Priorities implements Example {
    enum Level { URGENT, NORMAL, BACKGROUND }

    record Task(String name, Level level) {
    }

    static final class Scheduler extends Selector<Task, Level> {
        final List<String> order = new ArrayList<>();
        private final int expected;

        Scheduler(int expected) {
            super(Level.class);                           // URGENT is mailbox 0: served first
            this.expected = expected;
        }

        @Override
        protected int route(Task task) {
            return task.level().ordinal();
        }

        @Override
        protected void process(Task task) {               // knows nothing about priorities
            order.add(task.name());
            if (order.size() == expected) {
                exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        List<Task> tasks = List.of(
                new Task("index the archive", Level.BACKGROUND),
                new Task("render the report", Level.NORMAL),
                new Task("page the on-call engineer", Level.URGENT),
                new Task("compress old logs", Level.BACKGROUND),
                new Task("answer the customer", Level.NORMAL),
                new Task("restart the failed node", Level.URGENT));
        Scheduler scheduler = new Scheduler(tasks.size());
        tasks.forEach(scheduler.ref()::send);             // all queued before the selector starts
        finish(() -> scheduler.start());
        out.println("sent in this order:      " + tasks.stream().map(Task::name).toList());
        out.println("processed in this order: " + scheduler.order);
    }

    public static void main(String[] args) {
        new Priorities().run(System.out);
    }
}
