package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What close() guarantees: waiting finishes end, new work is refused, messages become counted dead letters. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CloseTest {

    /** Counts what it processes; never exits on its own. */
    static final class Sink extends Actor<Integer> {
        final LongAdder processed = new LongAdder();
        final CountDownLatch first = new CountDownLatch(1);

        @Override
        protected void process(Integer m) {
            processed.increment();
            first.countDown();
        }
    }

    static TaskRuntime runtime(String name, List<DeadLetter> deadLetters) {
        TaskRuntime rt = TaskRuntime.builder().name(name).workers(2).build();
        DeadLetter.subscribe(rt, deadLetters::add);
        return rt;
    }

    /**
     * The close comes before the finish's thread has begun to wait (here: from the body itself). Terminating the
     * actor must not let the finish end as if its work had succeeded (it did, now and then, when the waiting
     * thread of the test below was slow to register its wait).
     */
    @Test
    void aFinishClosedBeforeItBeganToWaitEndsWithAnExceptionNamingItsActor() {
        TaskRuntime rt = runtime("closing-early", new CopyOnWriteArrayList<>());
        Sink sink = new Sink();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            ActorRef<Integer> ref = sink.start();
            ref.send(1);
            assertThat(awaitQuietly(sink.first)).isTrue();
            rt.close();
        }));
        assertThat(thrown).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'closing-early' was closed by thread")
                .hasMessageContaining("actor " + sink)
                .hasMessageContaining("never exited");
        assertThat(sink.state()).hasToString("TERMINATED");
    }

    private static boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void aFinishWaitingOnALiveActorEndsWithAnExceptionNamingIt() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        TaskRuntime rt = runtime("closing", dead);
        Sink sink = new Sink();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                rt.finish(() -> {
                    ActorRef<Integer> ref = sink.start();
                    ref.send(1);
                    started.countDown();
                });
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        waiter.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(sink.first.await(10, TimeUnit.SECONDS)).isTrue();
        rt.close();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(waiter.isAlive()).as("the waiting finish ended").isFalse();
        assertThat(thrown.get()).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'closing' was closed by thread '" + Thread.currentThread().getName())
                .hasMessageContaining("actor " + sink)
                .hasMessageContaining("never exited");
        assertThat(sink.state()).hasToString("TERMINATED");
    }

    @Test
    void newWorkIsRefusedWithAnExceptionNamingTheRuntime() {
        TaskRuntime rt = TaskRuntime.builder().name("shut").workers(2).build();
        rt.close();
        assertThat(rt.isClosed()).isTrue();
        assertThatThrownBy(() -> rt.finish(() -> { }))
                .isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'shut' is closed").hasMessageContaining("cannot finish");
        assertThatThrownBy(() -> rt.async(() -> { }))
                .isInstanceOf(RuntimeClosedException.class).hasMessageContaining("cannot async");
        assertThatThrownBy(() -> rt.asyncAwait(new DataDrivenFuture<Integer>(), () -> { }))
                .isInstanceOf(RuntimeClosedException.class).hasMessageContaining("cannot asyncAwait");
        assertThatThrownBy(() -> rt.forasync(0, 10, i -> { }))
                .isInstanceOf(RuntimeClosedException.class);
        assertThatThrownBy(() -> rt.forasync(5, 5, i -> { }))     // an empty loop too, as forall's finish does
                .isInstanceOf(RuntimeClosedException.class).hasMessageContaining("cannot forasync");
        rt.close();                                    // idempotent
    }

    /**
     * A finish that its runtime's close stopped throws the close's RuntimeClosedException even when it has more
     * failures than it keeps; the MultiException that counts them is suppressed in it. It threw that
     * MultiException, which a catch of RuntimeClosedException, as the close's documentation promises, missed.
     */
    @Test
    void aClosedFinishWithMoreFailuresThanItKeepsThrowsTheClose() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-busy").workers(2).noFailureLogging().build();
        CountDownLatch failed = new CountDownLatch(200);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread owner = new Thread(() -> thrown.set(catchThrowable(() -> rt.finish(() -> {
            for (int i = 0; i < 200; i++) {
                int n = i;
                rt.async(() -> {
                    failed.countDown();
                    throw new IllegalStateException("task " + n);
                });
            }
            rt.async(() -> new CountDownLatch(1).await(60, TimeUnit.SECONDS));     // keeps the finish open
        }))), "owner");
        owner.start();
        assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
        rt.close(Duration.ofMillis(100));
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(thrown.get()).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'closed-busy' was closed by thread");
        assertThat(thrown.get().getSuppressed()).singleElement().isInstanceOfSatisfying(MultiException.class,
                m -> assertThat(m.failureCount()).isGreaterThan(m.failures().size()));
    }

    /**
     * Tasks of runtime B spawned in a finish of runtime A, still queued when B is closed, fail A's finish with B's
     * close: B's close tells only B's finishes. A's finish ended normally, with none of them run.
     */
    @Test
    void tasksOfAClosedRuntimeInAnotherRuntimesFinishFailThatFinish() throws Exception {
        TaskRuntime a = TaskRuntime.builder().name("a").workers(1).noFailureLogging().build();
        TaskRuntime b = TaskRuntime.builder().name("b").workers(1).noFailureLogging().build();
        CountDownLatch busy = new CountDownLatch(1);
        b.async(() -> {                                  // holds b's one worker, outside every finish
            busy.countDown();
            new CountDownLatch(1).await(60, TimeUnit.SECONDS);
        });
        assertThat(busy.await(30, TimeUnit.SECONDS)).isTrue();
        AtomicInteger ran = new AtomicInteger();
        Throwable thrown = catchThrowable(() -> a.finish(() -> {
            for (int i = 0; i < 3; i++) {
                b.async(ran::incrementAndGet);           // queued behind the busy worker, counted in a's finish
            }
            b.close(Duration.ZERO);
        }));
        a.close();
        assertThat(ran).hasValue(0);
        assertThat(thrown).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'b' was closed by thread '" + Thread.currentThread().getName() + "'")
                .hasMessageContaining("before task running CloseTest (lambda) could run");
    }

    /**
     * A thread without a name, as virtual threads are, is named by its id in what the runtime says about it: here
     * who closed the runtime. Such messages said "closed by thread ''".
     */
    @Test
    void aVirtualThreadIsNamedByItsId() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-virtually").workers(1).build();
        Thread closer = Thread.ofVirtual().start(rt::close);
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closer.isAlive()).isFalse();
        assertThatThrownBy(() -> rt.async(() -> { })).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("closed by thread 'virtual #" + closer.threadId() + "'");
    }

    @Test
    void aNegativeCloseTimeoutIsRefusedAndAHugeOneWaitsAsLongAsItTakes() {
        TaskRuntime rt = TaskRuntime.builder().name("timeouts").workers(1).build();
        assertThatThrownBy(() -> rt.close(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
        assertThat(rt.isClosed()).isFalse();
        assertThat(rt.close(Duration.ofSeconds(Long.MAX_VALUE))).isTrue();
    }

    /**
     * A nested finish times out inside a finish that then times out too, on a thread in no finish: nobody waits
     * for their work any more, so a close tells nobody. Before, the nested one was told it was closed "while this
     * finish waited for its work", and that went to the handler of failures outside every finish.
     */
    @Test
    void aCloseTellsNoFinishThatTimedOutIntoFinishesThatAllTimedOut() {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        TaskRuntime rt = TaskRuntime.builder().name("timed-out").workers(2).noHangReports()
                .onUnscopedFailure(unscoped::add).build();
        DataDrivenFuture<String> never = new DataDrivenFuture<>();
        AtomicReference<Throwable> nested = new AtomicReference<>();
        Throwable outer = catchThrowable(() -> rt.finish(Duration.ofMillis(400), () -> rt.async(() -> nested.set(
                catchThrowable(() -> rt.finish(Duration.ofMillis(50), () -> rt.asyncAwait(never, () -> { })))))));
        assertThat(outer).isInstanceOf(FinishTimeoutException.class);
        Await.until("the nested finish timed out", () -> nested.get() != null);   // a busy machine: after the outer
        assertThat(nested.get()).isInstanceOf(FinishTimeoutException.class);
        assertThat(rt.close(Duration.ofSeconds(20))).isTrue();
        assertThat(unscoped).as("failures told to no finish").isEmpty();
    }

    @Test
    void aFinishWithAnAsyncOnAClosedRuntimeDoesNotHang() throws Exception {
        TaskRuntime rt = TaskRuntime.create(2);
        rt.close();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> thrown.set(catchThrowable(() -> rt.finish(() -> rt.async(() -> { })))));
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(t.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(RuntimeClosedException.class);
    }

    /**
     * Tasks blocked in {@code get()} and {@code get(Duration)} of futures nobody will put, and a finish body on its
     * own thread blocked the same way: a close frees them at once, each with an exception naming the runtime, the
     * thread and the future, and returns true (the workers blocked in get() ended). Before, get() ignored the
     * close's interrupt and kept its worker: close returned false.
     */
    @Test
    void aCloseFreesEveryGetThatWaitsInTheRuntime() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("getters").workers(2).build();
        DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
        DataDrivenFuture<Integer> neverTimed = new DataDrivenFuture<>();
        AtomicReference<Throwable> inTask = new AtomicReference<>();
        AtomicReference<Throwable> inTimedTask = new AtomicReference<>();
        AtomicReference<Throwable> fromFinish = new AtomicReference<>();
        List<Thread> getters = new CopyOnWriteArrayList<>();
        Thread owner = new Thread(() -> fromFinish.set(catchThrowable(() -> rt.finish(() -> {
            rt.async(() -> inTask.set(catchThrowable(() -> getOn(never, getters))));
            rt.async(() -> inTimedTask.set(catchThrowable(() -> {
                getters.add(Thread.currentThread());
                neverTimed.get(Duration.ofHours(1));
            })));
            getOn(never, getters);
        }))), "getters-owner");
        owner.start();
        Await.until(() -> "three threads parked in get(): " + getters, () -> getters.size() == 3
                && getters.stream().allMatch(t -> t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING));
        assertThat(rt.close(Duration.ofSeconds(20))).as("every worker ended").isTrue();
        join(owner);
        for (AtomicReference<Throwable> t : List.of(inTask, inTimedTask)) {
            assertThat(t.get()).isInstanceOf(RuntimeClosedException.class)
                    .hasMessageContaining("runtime 'getters' was closed by thread '" + Thread.currentThread().getName())
                    .hasMessageContaining("waited in get() of DataDrivenFuture@");
        }
        assertThat(fromFinish.get()).as("the body's get() reaches its finish")    // with the finish's own, at times
                .hasMessageContaining("runtime 'getters' was closed by thread")
                .hasMessageContaining("while thread 'getters-owner' waited in get() of " + never);
        assertThat(inTimedTask.get()).hasMessageContaining(neverTimed.toString());
    }

    /**
     * A finish whose body the close ended (its get() freed) throws the close's exception, the body's task's own
     * failure suppressed in it: it threw a MultiException of both, which {@code catch (RuntimeClosedException e)}
     * misses.
     */
    @Test
    void aFinishWhoseBodyTheCloseEndedThrowsTheClosesException() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("service").workers(2).noFailureLogging().build();
        DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
        AtomicReference<TaskFuture<Integer>> failing = new AtomicReference<>();
        AtomicReference<Throwable> fromFinish = new AtomicReference<>();
        List<Thread> getters = new CopyOnWriteArrayList<>();
        Thread owner = new Thread(() -> fromFinish.set(catchThrowable(() -> rt.finish(() -> {
            failing.set(rt.future(() -> {
                throw new IllegalStateException("a task failed while the body waited");
            }));
            getOn(never, getters);
        }))), "service-main");
        owner.start();
        // a future's task reports its failure to the finish before it fails the future
        Await.until("the task's failure", () -> failing.get() != null && failing.get().isDone());
        Await.until(() -> "the body parked in get(): " + getters, () -> getters.size() == 1
                && getters.get(0).getState() == Thread.State.WAITING);
        assertThat(rt.close(Duration.ofSeconds(20))).isTrue();
        join(owner);
        assertThat(fromFinish.get()).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("while thread 'service-main' waited in get() of " + never);
        assertThat(fromFinish.get().getSuppressed()).anySatisfy(t -> assertThat(t)
                .isInstanceOf(IllegalStateException.class).hasMessage("a task failed while the body waited"));
    }

    /** The close races the get's registration: whichever comes first, the get ends and so does the close. */
    @RepeatedTest(40)
    void aGetThatBeginsAsTheRuntimeClosesEndsToo() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("racing").workers(1).build();
        DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
        AtomicReference<Throwable> inTask = new AtomicReference<>();
        CountDownLatch about = new CountDownLatch(1);
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> rt.async(() -> {
            about.countDown();
            inTask.set(catchThrowable(never::get));
        }))));
        owner.start();
        await(about);
        assertThat(rt.close(Duration.ofSeconds(20))).as("the worker ended").isTrue();
        join(owner);
        assertThat(inTask.get()).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'racing' was closed");
    }

    private static Integer getOn(DataDrivenFuture<Integer> future, List<Thread> getters) {
        getters.add(Thread.currentThread());
        return future.get();
    }

    @Test
    void sendsAfterCloseAndMessagesLeftInMailboxesAreCountedDeadLetters() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        TaskRuntime rt = runtime("letters", dead);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Actor<Integer> slow = new Actor<>() {
            @Override
            protected void process(Integer m) {
                if (m == 0) {
                    holding.countDown();
                    await(release);
                }
            }
        };
        Thread closer = new Thread(rt::close);
        AtomicBoolean sendThrew = new AtomicBoolean();
        AtomicReference<ActorRef<Integer>> slowRef = new AtomicReference<>();
        rt.finish(Duration.ofSeconds(1), () -> { }); // the runtime works
        Thread sender = new Thread(() -> {
            try {
                rt.finish(() -> {
                    slowRef.set(slow.start());
                    for (int i = 0; i < 10; i++) {
                        slowRef.get().send(i);         // 1..9 wait behind the message being processed
                    }
                });
            } catch (RuntimeClosedException expected) {
                // the finish was waiting when the runtime closed
            }
        });
        sender.start();
        await(holding);
        closer.start();
        Await.until("close() to reach the actor", () -> slow.state() == dev.switchboard.actor.ActorState.TERMINATED);
        release.countDown();
        join(closer);
        join(sender);
        try {
            slowRef.get().send(100);                   // after close: a dead letter, not an exception
        } catch (Throwable t) {
            sendThrew.set(true);
        }
        assertThat(sendThrew).isFalse();
        assertThat(slow.processedCount()).isEqualTo(1);
        assertThat(slow.deadLetterCount()).isEqualTo(10);
        assertThat(rt.deadLetterCount()).isEqualTo(10);
        assertThat(dead).hasSize(10).allSatisfy(d -> assertThat(d.reason()).isEqualTo(DeadLetter.Reason.RUNTIME_CLOSED));
        assertThat(dead.stream().map(d -> (Integer) d.message()).sorted().toList())
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 100);
    }

    @Test
    void startingAnActorOnAClosedRuntimeIsRefusedAndItsMessagesAreDeadLetters() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        TaskRuntime rt = runtime("late", dead);
        Sink sink = new Sink();
        sink.ref().send(1);                            // before start()
        sink.ref().send(2);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Throwable finishThrew = catchThrowable(() -> rt.finish(() -> rt.async(() -> {
            // a task of the runtime, still running while another thread closes it
            new Thread(() -> {
                rt.close(Duration.ofSeconds(1));
                closed.countDown();
            }).start();
            Await.until("the close", rt::isClosed);
            thrown.set(catchThrowable(sink::start));
        })));
        await(closed);
        if (finishThrew != null) {
            // the close stopped the finish while it waited for the task; had the task ended first (it ends right
            // after the refused start), the finish ended normally
            assertThat(finishThrew).isInstanceOf(RuntimeClosedException.class);
        }
        assertThat(thrown.get()).isInstanceOf(RuntimeClosedException.class).hasMessageContaining("runtime 'late'")
                .hasMessageContaining("start " + sink);
        sink.ref().send(3);                            // its start() was refused: it returned no ref
        assertThat(sink.processed.sum()).isZero();
        assertThat(sink.deadLetterCount()).isEqualTo(3);
        assertThat(dead).extracting(DeadLetter::message).containsExactly(1, 2, 3);
    }

    /** Many senders outside the runtime keep sending while it closes: every message is processed or a dead letter. */
    @RepeatedTest(5)
    void everyMessageSentIsProcessedOrCountedWhenTheRuntimeClosesUnderLoad() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("load").workers(2).build();
        int actors = 8;
        Sink[] sinks = new Sink[actors];
        AtomicReferenceArray<ActorRef<Integer>> refs = new AtomicReferenceArray<>(actors);
        Thread owner = new Thread(() -> {
            try {
                rt.finish(() -> {
                    for (int i = 0; i < actors; i++) {
                        sinks[i] = new Sink();
                        refs.set(i, sinks[i].start());
                    }
                });
            } catch (RuntimeClosedException expected) {
                // it was waiting for the sinks
            }
        });
        owner.start();
        Await.until("the last sink's start", () -> refs.get(actors - 1) != null);
        LongAdder sent = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] senders = new Thread[4];
        for (int s = 0; s < senders.length; s++) {
            int seed = s;
            senders[s] = new Thread(() -> {
                int i = seed;
                while (!stop.get()) {
                    refs.get(i++ % actors).send(i);
                    sent.increment();
                }
            });
            senders[s].start();
        }
        Await.until("200,000 sends", () -> sent.sum() >= 200_000);
        rt.close();
        Await.until("200,000 sends after the close", () -> sent.sum() >= 400_000);
        stop.set(true);
        for (Thread t : senders) {
            join(t);
        }
        join(owner);
        long processed = 0;
        long dead = 0;
        for (Sink s : sinks) {
            processed += s.processed.sum();
            dead += s.deadLetterCount();
        }
        assertThat(processed + dead).isEqualTo(sent.sum());
        assertThat(rt.deadLetterCount()).isEqualTo(dead);
    }

    static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static void join(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(t.isAlive()).as(t.getName() + " ended").isFalse();
    }

    /**
     * Once a close's timeout has passed, nothing more starts from the shared queue: the tasks queued behind the
     * running one are refused before the workers are interrupted, so a task that honours the interrupt lets the
     * close end. The worker took the next queued task after the interrupt, which ran on past the close's second.
     */
    @Test
    void afterTheTimeoutNoQueuedTaskStartsAndTheCloseEnds() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("queued-at-close").workers(1).noFailureLogging().build();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger interrupted = new AtomicInteger();
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> {
            for (int i = 0; i < 3; i++) {
                rt.async(() -> {
                    started.incrementAndGet();
                    try {
                        new CountDownLatch(1).await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                    }
                });
            }
        })), "owner");
        owner.start();
        Await.until("the first task runs", () -> started.get() == 1);
        assertThat(rt.close(Duration.ofMillis(200))).as("the close ended the pool").isTrue();
        assertThat(started).as("tasks started").hasValue(1);
        assertThat(interrupted).as("the running task was interrupted").hasValue(1);
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(owner.isAlive()).as("the finish ended").isFalse();
    }

    /**
     * A close called by an interrupted thread, as a service's shutdown may be, stops waiting for the tasks at once
     * and interrupts them, as {@code ExecutorService.close()} does, but still gives them their second to end, and
     * keeps the interrupt status. It skipped that second too, and returned false while the task was ending.
     */
    @Test
    void anInterruptedCloserInterruptsTheTasksAndStillWaitsTheirSecond() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-interrupted").workers(1).noFailureLogging().build();
        AtomicInteger started = new AtomicInteger();
        AtomicBoolean ended = new AtomicBoolean();
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> rt.async(() -> {
            started.incrementAndGet();
            try {
                new CountDownLatch(1).await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                ended.set(true);
            }
        }))), "owner");
        owner.start();
        Await.until("the task runs", () -> started.get() == 1);
        Thread.currentThread().interrupt();
        boolean closed;
        try {
            closed = rt.close(Duration.ofSeconds(30));
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt status is kept").isTrue();
        }
        assertThat(closed).as("the pool ended within the second").isTrue();
        assertThat(ended).as("the task was interrupted").isTrue();
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(owner.isAlive()).as("the finish ended").isFalse();
    }

    /**
     * A close on a worker (an actor's) cannot wait for the pool its own turn keeps alive: it returns false at once.
     * The next close, from a thread off the pool, does the wait: here it interrupts a turn that outlasts its
     * timeout and returns true once every worker has ended. It returned false at once, and nothing waited.
     */
    @Test
    void aCloseOffThePoolWaitsForTheEndThatACloseOnAWorkerCouldNot() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-inside").workers(2).noFailureLogging().build();
        CountDownLatch blocking = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicReference<Boolean> closedInside = new AtomicReference<>();
        Actor<String> blocker = new Actor<>() {
            @Override
            protected void process(String message) {
                blocking.countDown();
                try {
                    assertThat(new CountDownLatch(1).await(40, TimeUnit.SECONDS)).as("interrupted first").isFalse();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
            }
        };
        Actor<String> closer = new Actor<>() {
            @Override
            protected void process(String message) {
                closedInside.set(runtime().close(Duration.ofSeconds(20)));
            }
        };
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> {
            blocker.start().send("block");
            assertThat(awaitQuietly(blocking)).isTrue();
            closer.start().send("close");
        })), "owner");
        owner.start();
        Await.until("the actor's close returned", () -> closedInside.get() != null);
        assertThat(closedInside.get()).as("a close on a worker cannot wait for the pool").isFalse();
        assertThat(interrupted).as("the blocked turn still runs").isFalse();
        assertThat(rt.close(Duration.ofMillis(100))).as("the close off the pool waited for every worker").isTrue();
        assertThat(interrupted).as("the turn that outlasted the close's timeout was interrupted").isTrue();
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(owner.isAlive()).as("the finish ended").isFalse();
    }

    /**
     * A close on a worker while a close off the pool waits for the pool to end returns at once: the wait may be for
     * that worker's own turn. It waited for the other close's lock, which that close held for its whole wait, so
     * the pool could not end and the close off the pool waited out its timeout and returned false.
     */
    @Test
    void aCloseOnAWorkerDoesNotWaitForTheCloseThatWaitsForIt() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-twice-inside").workers(2).noFailureLogging().build();
        CountDownLatch inTurn = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        AtomicReference<Boolean> firstInside = new AtomicReference<>();
        AtomicReference<Boolean> secondInside = new AtomicReference<>();
        Actor<String> late = new Actor<>() {
            @Override
            protected void process(String message) {
                inTurn.countDown();
                awaitQuietly(goOn);                     // until the close off the pool waits for this turn
                secondInside.set(runtime().close(Duration.ofSeconds(20)));
            }
        };
        Actor<String> closer = new Actor<>() {
            @Override
            protected void process(String message) {
                firstInside.set(runtime().close(Duration.ofSeconds(20)));
            }
        };
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> {
            late.start().send("go");
            assertThat(awaitQuietly(inTurn)).isTrue();
            closer.start().send("close");
        })), "owner");
        owner.start();
        Await.until("the first close on a worker returned", () -> firstInside.get() != null);
        AtomicReference<Boolean> offThePool = new AtomicReference<>();
        Thread main = new Thread(() -> offThePool.set(rt.close(Duration.ofSeconds(20))), "main-close");
        main.start();
        Await.until("the close off the pool waiting for the pool", () -> main.getState() == Thread.State.TIMED_WAITING);
        goOn.countDown();
        main.join(TimeUnit.SECONDS.toMillis(40));
        assertThat(secondInside.get()).as("the second close on a worker").isFalse();
        assertThat(offThePool.get()).as("the close off the pool saw every worker end").isTrue();
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(owner.isAlive()).as("the finish ended").isFalse();
    }
}
