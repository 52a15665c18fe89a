package dev.switchboard.examples;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.TaskRuntime;
import java.io.PrintStream;
import java.time.Duration;

/**
 * A short tour ({@code ./switchboard demo}): ping-pong, a finish that detects the termination of many actors,
 * async/finish inside an actor, and the hang diagnostic for an actor that forgot to exit.
 */
public final class Demo {
    private Demo() {
    }

    sealed interface Msg permits Hit, Stop {
    }

    record Hit(int n) implements Msg {
    }

    record Stop() implements Msg {
    }

    /** Forgets to call exit() on Stop. */
    static final class ForgetfulActor extends Actor<Msg> {
        @Override
        protected void process(Msg msg) {
        }
    }

    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        TaskRuntime rt = TaskRuntime.defaultRuntime();
        out.printf("Switchboard demo - default runtime with %d workers, throughput %d%n%n", rt.workers(),
                rt.throughput());

        out.println("1. Ping-pong: two actors, 100,000 round trips, termination detected by finish");
        new PingPongFinish(100_000).run(out);
        out.println();

        out.println("2. A finish that waits for 10,000 actors: it returns when the last one has exited");
        int actors = 10_000;
        java.util.concurrent.atomic.LongAdder hits = new java.util.concurrent.atomic.LongAdder();
        long t0 = System.nanoTime();
        finish(() -> {
            for (int i = 0; i < actors; i++) {
                ActorRef<Msg> a = new Actor<Msg>() {
                    @Override
                    protected void process(Msg msg) {
                        switch (msg) {
                            case Hit h -> hits.add(h.n());
                            case Stop s -> exit();
                        }
                    }
                }.start();
                a.send(new Hit(1));
                a.send(new Stop());
            }
        });
        out.printf("   all %d actors exited after processing %d messages, in %d ms; dead letters: %d%n%n", actors,
                hits.sum(), (System.nanoTime() - t0) / 1_000_000, rt.deadLetterCount());

        out.println("3. async/finish inside an actor: each message counted in parallel, one message at a time");
        new ParallelizedActor().run(out);
        out.println();

        out.println("4. The hang diagnostic: an actor that never exits keeps its finish open");
        try {
            finish(Duration.ofMillis(300), () -> {
                ActorRef<Msg> forgetful = new ForgetfulActor().start("forgetful");   // named in the report
                forgetful.send(new Stop());
                async(() -> { });
            });
        } catch (FinishTimeoutException e) {
            out.println("   " + e.getMessage().replace("\n", "\n   "));
        }
        out.println();
        out.println("More: ./switchboard examples, ./switchboard bench --quick, ./switchboard test");
    }
}
