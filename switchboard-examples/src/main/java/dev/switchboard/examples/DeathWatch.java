package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Terminated;
import java.io.PrintStream;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Death watch: a coordinator hands jobs to four workers and watches them. Each worker ends after its jobs; one is
 * given a job it cannot do and fails. The coordinator hears of every end, and how, after everything that worker
 * did, and exits once all have ended; the failure still reaches the finish, which rethrows it at the end.
 */
public final class DeathWatch implements Example {
    sealed interface Job permits Work, Done {
    }

    record Work(int n) implements Job {
    }

    record Done() implements Job {
    }

    /** Adds up its work; a negative job is one it cannot do. */
    static final class Worker extends Actor<Job> {
        private long sum;

        @Override
        protected void process(Job job) {
            switch (job) {
                case Work w when w.n() < 0 -> throw new IllegalArgumentException("a job of " + w.n() + " cannot be done");
                case Work w -> sum += w.n();
                case Done d -> exit();
            }
        }
    }

    record WorkerEnded(Terminated end) {
    }

    /** Watches the workers; reports each end; exits when the last has ended. */
    static final class Coordinator extends Actor<WorkerEnded> {
        private final List<ActorRef<Job>> workers;
        private final PrintStream out;
        private int alive;

        Coordinator(List<ActorRef<Job>> workers, PrintStream out) {
            this.workers = workers;
            this.out = out;
            this.alive = workers.size();
        }

        @Override
        protected void onStart() {
            workers.forEach(w -> watch(w, WorkerEnded::new));
        }

        @Override
        protected void process(WorkerEnded m) {
            Terminated end = m.end();
            out.println(end.actor().name() + " ended: " + end.reason()
                    + (end.failure() == null ? "" : " (" + end.failure().getMessage() + ")"));
            if (--alive == 0) {
                out.println("every worker has ended");
                exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        try {
            finish(() -> {
                List<ActorRef<Job>> workers = IntStream.range(0, 4)
                        .mapToObj(i -> new Worker().start("worker-" + i)).toList();
                new Coordinator(workers, out).start("coordinator");
                for (int i = 0; i < workers.size(); i++) {
                    for (int n = 1; n <= 100; n++) {
                        workers.get(i).send(new Work(i == 2 && n == 50 ? -1 : n));
                    }
                    workers.get(i).send(new Done());
                }
            });
        } catch (IllegalArgumentException failed) {
            out.println("the finish rethrew the failure: " + failed.getMessage());
        }
    }

    public static void main(String[] args) {
        new DeathWatch().run(System.out);
    }
}
