package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.Switchboard;
import dev.switchboard.monitor.MutexMonitor;
import dev.switchboard.task.RuntimeClosedException;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** onStart() before the first message and onExit() as the last word, on every kind of actor. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifecycleHooksTest {
    static TaskRuntime rt;
    static final ConcurrentLinkedQueue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("hooks").workers(2).build();
        DeadLetter.subscribe(rt, deadLetters::add);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    /** Logs its hooks and messages; "stop" exits, "boom" throws. What its hooks do is set per test. */
    static class Logged extends Actor<String> {
        final List<String> log = new CopyOnWriteArrayList<>();
        Runnable atStart = () -> { };
        Runnable atExit = () -> { };

        @Override
        protected void onStart() {
            log.add("start");
            atStart.run();
        }

        @Override
        protected void process(String msg) {
            log.add(msg);
            switch (msg) {
                case "stop" -> exit();
                case "boom" -> throw new IllegalStateException("boom");
                default -> { }
            }
        }

        @Override
        protected void onExit() {
            log.add("exit");
            atExit.run();
        }
    }

    @Test
    void onStartRunsOnceBeforeTheFirstMessageAndOnExitOnceAfterTheLast() {
        Logged a = new Logged();
        rt.finish(() -> {
            ActorRef<String> ref = a.start();
            for (int i = 0; i < 100; i++) {
                ref.send("m" + i);
            }
            ref.send("stop");
        });
        assertThat(a.log).hasSize(103).startsWith("start", "m0").endsWith("m99", "stop", "exit");
    }

    @Test
    void messagesSentBeforeStartWaitForOnStart() {
        Logged a = new Logged();
        a.self.send("early");                              // the reference exists from the constructor on
        rt.finish(() -> {
            a.start().send("stop");
        });
        assertThat(a.log).containsExactly("start", "early", "stop", "exit");
    }

    @Test
    void hooksRunInTheActorsContextAndTheFinishWaitsForWhatTheySpawn() {
        AtomicInteger spawned = new AtomicInteger();
        Logged a = new Logged();
        a.atStart = () -> {
            Switchboard.async(spawned::incrementAndGet);       // a task of the actor, inside its finish
            a.become(msg -> {                                // only the actor's own processing may become
                a.log.add("became:" + msg);
                if (msg.equals("stop")) {
                    a.exit();
                }
            });
        };
        a.atExit = () -> Switchboard.async(() -> {
            spawned.incrementAndGet();
            a.log.add("after-exit task");
        });
        rt.finish(() -> {
            ActorRef<String> ref = a.start();
            ref.send("x");
            ref.send("stop");
        });
        assertThat(spawned).hasValue(2);                     // the finish waited for both tasks
        assertThat(a.log).containsExactly("start", "became:x", "became:stop", "exit", "after-exit task");
    }

    @Test
    void exitInOnStartEndsTheActorBeforeAnyMessage() {
        Logged a = new Logged();
        a.atStart = a::exit;
        deadLetters.clear();
        rt.finish(() -> {
            ActorRef<String> ref = a.start();
            ref.send("never");
        });
        assertThat(a.log).containsExactly("start", "exit");
        assertThat(a.processedCount()).isZero();
        assertThat(deadLetters).filteredOn(d -> d.message().equals("never")).hasSize(1);
    }

    @Test
    void aFailureInOnStartReachesTheFinishAndOnExitStillRuns() {
        Logged a = new Logged();
        a.atStart = () -> {
            throw new IllegalStateException("no connection");
        };
        Throwable thrown = catchThrowable(() -> rt.finish(() -> a.start("client").send("request")));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("no connection");
        Throwable failure = thrown;
        assertThat(failure.getSuppressed()[0].getMessage())
                .matches("client@\\d+ was terminated: this exception escaped onStart\\(\\)");
        assertThat(a.log).containsExactly("start", "exit");
    }

    @Test
    void onExitRunsAfterAFailureInProcess() {
        Logged a = new Logged();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            ActorRef<String> ref = a.start();
            ref.send("boom");
            ref.send("after");
        }));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(a.log).containsExactly("start", "boom", "exit");
    }

    @Test
    void aFailureInOnExitReachesTheFinishNamingTheActor() {
        Logged a = new Logged();
        a.atExit = () -> {
            throw new IllegalStateException("could not release the file");
        };
        Throwable thrown = catchThrowable(() -> rt.finish(() -> a.start("writer").send("stop")));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("could not release the file");
        Throwable failure = thrown;
        assertThat(failure.getSuppressed()[0].getMessage()).matches("writer@\\d+ failed in onExit\\(\\) after it terminated");
        assertThat(a.log).containsExactly("start", "stop", "exit");
    }

    /** A stage of a pipeline: passes numbers on, and at its end tells the next stage to end too. */
    static final class Stage extends Actor<Integer> {
        final ActorRef<Integer> next;
        final List<Integer> sums;
        int sum;

        Stage(ActorRef<Integer> next, List<Integer> sums) {
            this.next = next;
            this.sums = sums;
        }

        @Override
        protected void process(Integer n) {
            if (n < 0) {
                exit();
            } else {
                sum += n;
                if (next != null) {
                    next.send(n * 2);
                }
            }
        }

        @Override
        protected void onExit() {
            sums.add(sum);
            if (next != null) {
                next.send(-1);                              // the end goes down the pipeline
            }
        }
    }

    @Test
    void onExitForwardsTheEndDownAPipeline() {
        List<Integer> sums = new CopyOnWriteArrayList<>();
        rt.finish(() -> {
            ActorRef<Integer> last = new Stage(null, sums).start("last");
            ActorRef<Integer> middle = new Stage(last, sums).start("middle");
            ActorRef<Integer> first = new Stage(middle, sums).start("first");
            for (int i = 1; i <= 100; i++) {
                first.send(i);
            }
            first.send(-1);
        });
        assertThat(sums).containsExactly(5050, 10100, 20200);
    }

    enum Box { IN, CONTROL }

    static final class Gate extends Selector<String, Box> {
        final List<String> log = new CopyOnWriteArrayList<>();

        Gate() {
            super(Box.class);
            disable(Box.IN);
        }

        @Override
        protected void onStart() {
            log.add("start");
            enable(Box.IN);                                   // opened by the hook, before any message
        }

        @Override
        protected void process(String msg) {
            log.add(msg);
            if (msg.equals("stop")) {
                exit();
            }
        }

        @Override
        protected void onExit() {
            log.add("exit");
        }
    }

    static final class Counter extends StatelessActor<String> {
        final AtomicInteger processed = new AtomicInteger();
        final List<String> hooks = new CopyOnWriteArrayList<>();

        @Override
        protected void onStart() {
            hooks.add("start:" + processed.get());
        }

        @Override
        protected void process(String msg) {
            processed.incrementAndGet();
            if (msg.equals("stop")) {
                exit();
            }
        }

        @Override
        protected void onExit() {
            hooks.add("exit");
        }
    }

    @Test
    void selectorsStatelessActorsAndMonitoredActorsRunTheirHooksToo() {
        Gate gate = new Gate();
        Counter counter = new Counter();
        Logged monitored = new MutexMonitor().bind(new Logged());
        rt.finish(() -> {
            SelectorRef<String, Box> g = gate.start();
            g.send(Box.IN, "a");
            g.send(Box.IN, "stop");
            ActorRef<String> c = counter.start();
            c.send("x");
            c.send("stop");
            ActorRef<String> m = monitored.start();
            m.send("y");
            m.send("stop");
        });
        assertThat(gate.log).containsExactly("start", "a", "stop", "exit");
        assertThat(counter.hooks).containsExactly("start:0", "exit");
        assertThat(monitored.log).containsExactly("start", "y", "stop", "exit");
    }

    @Test
    void onExitRunsWhenTheRuntimeIsClosedAndNotWhenOnStartNeverRan() throws Exception {
        TaskRuntime closing = TaskRuntime.builder().name("closing-hooks").workers(1).build();
        Logged started = new Logged();
        CountDownLatch startedRan = new CountDownLatch(1);
        started.atStart = startedRan::countDown;
        Logged neverRan = new Logged();
        CountDownLatch workerTaken = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread body = Thread.ofPlatform().start(() -> catchThrowable(() -> closing.finish(() -> {
            started.start();
            await(startedRan);
            Switchboard.async(() -> {                        // takes the only worker until the close
                workerTaken.countDown();
                await(release);
            });
            await(workerTaken);
            neverRan.start();                                // its first turn waits behind the blocked worker
            closing.close(Duration.ofMillis(100));           // then interrupts the blocked task
        })));
        body.join(TimeUnit.SECONDS.toMillis(30));
        release.countDown();
        assertThat(body.isAlive()).isFalse();
        assertThat(started.log).containsExactly("start", "exit");
        assertThat(neverRan.log).isEmpty();
        assertThat(neverRan.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(catchThrowable(() -> closing.finish(() -> { }))).isInstanceOf(RuntimeClosedException.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("waited 20 s for " + latch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
