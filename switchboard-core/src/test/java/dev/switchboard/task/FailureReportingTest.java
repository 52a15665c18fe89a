package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.ProcessingFailure;
import dev.switchboard.actor.Selector;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nothing is swallowed: every failure that happened is reported, once, naming where it happened. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureReportingTest {

    @Test
    void forallRunsEveryIterationAndReportsEveryFailure() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            LongAdder ran = new LongAdder();
            Throwable thrown = catchThrowable(() -> rt.forall(0, 1_000_000, i -> {
                ran.increment();
                if (i % 1000 == 0) {
                    throw new IllegalStateException("iteration " + i);
                }
            }));
            assertThat(ran.sum()).isEqualTo(1_000_000);
            assertThat(thrown).isInstanceOf(MultiException.class)
                    .hasMessageStartingWith("1000 failures in finish:")
                    .hasMessageContaining("... and 975 more (failures() holds the first 100)");
            MultiException m = (MultiException) thrown;
            assertThat(m.failureCount()).isEqualTo(1000);
            assertThat(m.failures()).hasSize(100)
                    .allSatisfy(f -> assertThat(f).isInstanceOf(IllegalStateException.class)
                            .hasMessageStartingWith("iteration "));
            assertThat(m.failures().stream().map(Throwable::getMessage).distinct()).hasSize(100);
        }
    }

    /**
     * A finish's MultiException lists each failure in 2,000 characters at most: forty failures with messages of a
     * megabyte each made a message of forty megabytes, and with less memory the finish threw an OutOfMemoryError
     * and lost them all.
     */
    @Test
    void aMultiExceptionsMessageIsBoundedWhateverItsFailuresSay() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            String huge = "x".repeat(1 << 20);
            Throwable thrown = catchThrowable(() -> rt.forall(0, 40, 1, i -> {
                throw new IllegalStateException(i + huge);
            }));
            assertThat(thrown).isInstanceOf(MultiException.class);
            assertThat(((MultiException) thrown).failures()).hasSize(40)
                    .allSatisfy(f -> assertThat(f.getMessage()).hasSizeGreaterThan(1 << 20));
            assertThat(thrown.getMessage()).hasSizeLessThan(26 * 2_100).contains("...\n  [2] ")
                    .contains("... and 15 more");
        }
    }

    /**
     * A loop over negative indices, or near the ends of the int range, runs each index once and no other. A range
     * with a negative start was split at the wrong middle: forall(-4, 0, 1, ...) ran some 200 million indices,
     * from 1 upwards.
     */
    @Test
    void loopsOverNegativeAndExtremeIndicesRunEachIndexOnce() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            int[][] ranges = {{-4, 0}, {-100, 100}, {-1000, -1}, {Integer.MIN_VALUE, Integer.MIN_VALUE + 300},
                {Integer.MAX_VALUE - 300, Integer.MAX_VALUE}};
            for (int[] r : ranges) {
                for (int chunk : new int[] {1, 7, 1000}) {
                    java.util.concurrent.atomic.AtomicIntegerArray seen =
                            new java.util.concurrent.atomic.AtomicIntegerArray(r[1] - r[0]);
                    LongAdder outside = new LongAdder();
                    rt.forall(r[0], r[1], chunk, i -> {
                        long at = (long) i - r[0];
                        if (at < 0 || at >= seen.length()) {
                            outside.increment();
                        } else {
                            seen.incrementAndGet((int) at);
                        }
                    });
                    assertThat(outside.sum()).as("indices outside [%d, %d)", r[0], r[1]).isZero();
                    for (int k = 0; k < seen.length(); k++) {
                        assertThat(seen.get(k)).as("index %d of [%d, %d)", r[0] + k, r[0], r[1]).isEqualTo(1);
                    }
                }
            }
        }
    }

    /**
     * A future's failure that tasks get() and rethrow, bare or in get()'s CompletionException, is one failure of
     * the finish, rethrown as itself; a future computed from a failed future's get() adds none either, and its own
     * get() wraps the failure once. Before, each rethrow was a failure of its own (four, in a MultiException).
     */
    @Test
    void aFuturesFailureRethrownByTheTasksThatGetItIsOneFailure() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            IllegalStateException boom = new IllegalStateException("boom");
            AtomicReference<Throwable> fromDerived = new AtomicReference<>();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                TaskFuture<Integer> failed = rt.future(() -> {
                    throw boom;
                });
                TaskFuture<Integer> derived = rt.future(() -> failed.get() + 1);
                rt.async(() -> failed.get());
                rt.async(() -> {
                    try {
                        failed.get();
                    } catch (java.util.concurrent.CompletionException e) {
                        throw (RuntimeException) e.getCause();
                    }
                });
                rt.async(() -> fromDerived.set(catchThrowable(derived::get)));
            }));
            assertThat(thrown).isSameAs(boom);
            assertThat(fromDerived.get()).isInstanceOf(java.util.concurrent.CompletionException.class)
                    .cause().isSameAs(boom);
        }
    }

    /**
     * One exception instance thrown by two tasks of a finish (a cached exception, or the one the JVM preallocates
     * for a hot throw site) is two failures: only a future's failure that a get() gives back is recorded once.
     */
    @Test
    void oneExceptionThrownByTwoTasksOfAFinishIsTwoFailures() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            IllegalStateException cached = new IllegalStateException("cached");
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                rt.async(() -> {
                    throw cached;
                });
                rt.async(() -> {
                    throw cached;
                });
            }));
            assertThat(thrown).isInstanceOf(MultiException.class);
            assertThat(((MultiException) thrown).failureCount()).isEqualTo(2);
        }
    }

    /**
     * Outside every finish, each throw of one exception instance reaches the handler of failures outside every
     * finish: the global scope lives as long as its runtime, and a failure there is not a rethrow of an earlier one.
     */
    @Test
    void oneExceptionThrownTwiceOutsideEveryFinishReachesTheHandlerTwice() throws Exception {
        IllegalStateException cached = new IllegalStateException("cached");
        java.util.concurrent.BlockingQueue<Throwable> unscoped = new java.util.concurrent.LinkedBlockingQueue<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).noFailureLogging().onUnscopedFailure(unscoped::add)
                .build()) {
            rt.async(() -> {
                throw cached;
            });
            assertThat(unscoped.poll(20, TimeUnit.SECONDS)).as("the first failure").isSameAs(cached);
            rt.async(() -> {
                throw cached;
            });
            assertThat(unscoped.poll(20, TimeUnit.SECONDS)).as("the second failure").isSameAs(cached);
        }
    }

    @Test
    void aLoopWithOneFailureRethrowsItAsItself() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            LongAdder ran = new LongAdder();
            Throwable thrown = catchThrowable(() -> rt.forall(0, 10_000, 16, i -> {
                ran.increment();
                if (i == 4321) {
                    throw new IllegalArgumentException("only " + i);
                }
            }));
            assertThat(ran.sum()).isEqualTo(10_000);
            assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessage("only 4321");
        }
    }

    static final class GuardThrowsAfterAFailure extends Selector<String, Selector.Numbered> {
        private boolean armed;

        GuardThrowsAfterAFailure(int mailboxes) {
            super(mailboxes);
            guard(0, () -> {
                if (armed) {
                    throw new IllegalStateException("guard");
                }
                return true;
            });
        }

        @Override
        protected void process(String m) {
            armed = true;
            throw new IllegalArgumentException("process");
        }
    }

    @Test
    void aSelectorThatFailedEvaluatesNoMoreGuards() {
        for (int mailboxes : new int[] {1, 2, 8}) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                GuardThrowsAfterAFailure s = new GuardThrowsAfterAFailure(mailboxes);
                Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                    ActorRef<String> ref = s.start();
                    ref.send("a");
                }));
                assertThat(thrown).as("%d mailboxes", mailboxes).isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("process");
            }
        }
    }

    static final class RegistersAThrowingGuard extends Selector<String, Selector.Numbered> {
        RegistersAThrowingGuard(int mailboxes) {
            super(mailboxes);
        }

        @Override
        protected void process(String m) {
            guard(0, () -> {
                throw new IllegalStateException("guard boom");
            });
        }
    }

    @Test
    void aGuardThatThrowsIsReportedOnce() {
        for (int mailboxes : new int[] {1, 2, 8}) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                RegistersAThrowingGuard s = new RegistersAThrowingGuard(mailboxes);
                Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                    ActorRef<String> ref = s.start();
                    ref.send("a");
                }));
                assertThat(thrown).as("%d mailboxes", mailboxes).isInstanceOf(IllegalStateException.class)
                        .hasMessage("guard boom");
                assertThat(s.state()).isEqualTo(ActorState.TERMINATED);
            }
        }
    }

    static final class GuardFailsAtStart extends Selector<String, Selector.Numbered> {
        private final AtomicBoolean starting = new AtomicBoolean();

        GuardFailsAtStart() {
            super(2);
            guard(1, () -> {
                if (starting.get()) {
                    throw new IllegalStateException("guard at start");
                }
                return true;
            });
            starting.set(true);
        }

        @Override
        protected void process(String m) {
        }
    }

    @Test
    void aGuardThatThrowsAtStartFailsTheSelectorInsteadOfHangingItsFinish() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            GuardFailsAtStart s = new GuardFailsAtStart();
            s.ref().send("early");                     // before start()
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(20), s::start));
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("guard at start");
            assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(ProcessingFailure.class)
                    .extracting(Throwable::getMessage).asString().contains(s.toString()).contains("failed to start");
            assertThat(dead).extracting(DeadLetter::message).containsExactly("early");
        }
    }

    static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    @Test
    void aStackOverflowInProcessNamesTheActor() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Actor<String> deep = new Actor<>() {
                @Override
                protected void process(String m) {
                    recurse(0);
                }
            };
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<String> ref = deep.start();
                ref.send("dive");
            }));
            // the JVM's StackOverflowError cannot carry a suppressed note: the note carries it instead
            assertThat(thrown).isInstanceOf(ProcessingFailure.class)
                    .hasMessageContaining(deep + " was terminated").hasMessageContaining("process(dive)")
                    .hasCauseInstanceOf(StackOverflowError.class);
        }
    }

    @Test
    void anIllegalArgumentFromProcessCarriesTheNote() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Actor<String> bad = new Actor<>() {
                @Override
                protected void process(String m) {
                    throw new IllegalArgumentException("bad " + m);
                }
            };
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<String> ref = bad.start();
                ref.send("x");
            }));
            assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessage("bad x");
            assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(ProcessingFailure.class)
                    .extracting(Throwable::getMessage).asString().contains(bad + " was terminated");
        }
    }

    /** onExit() can tell a failure from an exit(): failure() is what escaped process, or null after exit(). */
    @Test
    void onExitSeesTheFailureThatTerminatedTheActor() {
        AtomicReference<Throwable> afterFailure = new AtomicReference<>();
        AtomicReference<Throwable> afterExit = new AtomicReference<>(new AssertionError("onExit did not run"));
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        throw new IllegalStateException("cannot " + m);
                    }

                    @Override
                    protected void onExit() {
                        afterFailure.set(failure());
                    }
                }.start().send("work");
                new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        exit();
                    }

                    @Override
                    protected void onExit() {
                        afterExit.set(failure());
                    }
                }.start().send("stop");
            }));
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("cannot work");
            assertThat(afterFailure.get()).isSameAs(thrown);
            assertThat(afterExit.get()).isNull();
        }
    }

    /**
     * A finish that timed out has thrown its timeout: closing the runtime afterwards reports nothing more for it
     * (no "failure outside every finish"), and the actor it left running is terminated by the close.
     */
    @Test
    void closingAfterAFinishTimedOutReportsNoFailureForIt() {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        Actor<String> forgotten = new Actor<>() {
            @Override
            protected void process(String m) {
            }
        };
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).onUnscopedFailure(unscoped::add).build()) {
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(100), () -> forgotten.start()));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class);
        }
        assertThat(unscoped).isEmpty();
        assertThat(forgotten.state()).isEqualTo(ActorState.TERMINATED);
    }

    /**
     * A nested finish that timed out hands its work to the finish around it; closing the runtime then fails that
     * finish (its work was cut short), instead of letting it end as if the work had succeeded.
     */
    @Test
    void closingAfterANestedFinishTimedOutFailsTheFinishAroundIt() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().workers(2).build();
        Actor<String> forgotten = new Actor<>() {
            @Override
            protected void process(String m) {
            }
        };
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            Throwable inner = catchThrowable(() -> rt.finish(Duration.ofMillis(100), () -> forgotten.start()));
            assertThat(inner).isInstanceOf(FinishTimeoutException.class);
            Thread closer = new Thread(rt::close);
            closer.start();
            closer.join();
        }));
        assertThat(thrown).isInstanceOf(RuntimeClosedException.class).hasMessageContaining("was closed");
        assertThat(forgotten.state()).isEqualTo(ActorState.TERMINATED);
    }

    @Test
    void aReplyAwaitedBeforeExitIsADeadLetter() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Actor<Object> server = new Actor<>() {
                @Override
                protected void process(Object m) {
                    if (m instanceof Question q) {
                        q.replyTo().reply("answer to " + q.text());
                    } else {
                        exit();
                    }
                }
            };
            AtomicBoolean handled = new AtomicBoolean();
            AtomicReference<ActorRef<Object>> serverRef = new AtomicReference<>();   // set before the client starts
            AtomicReference<ActorRef<String>> clientRef = new AtomicReference<>();
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    awaitReply(serverRef.get(), r -> new Question("question", r), (String answer) -> handled.set(true));
                    serverRef.get().send("stop");
                    exit();                            // the reply comes after this actor has exited
                }
            };
            rt.finish(() -> {
                serverRef.set(server.start());
                clientRef.set(client.start());
                clientRef.get().send("go");
            });
            assertThat(handled).isFalse();
            assertThat(client.deadLetterCount()).isEqualTo(1);
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_AFTER_EXIT);
                assertThat(d.message()).isEqualTo("answer to question");
                assertThat(d.recipient()).isEqualTo(clientRef.get());
            });
        }
    }

    @Test
    void aReplyAwaitedBeforeExitKeepsTheFinishOpenUntilItComesAfterTheRequesterIsGone() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            java.util.concurrent.CompletableFuture<dev.switchboard.actor.ReplyTo<String>> asked =
                    new java.util.concurrent.CompletableFuture<>();
            Actor<Question> server = new Actor<>() {
                @Override
                protected void process(Question q) {
                    asked.complete(q.replyTo());       // answered later, from outside the runtime
                    exit();
                }
            };
            AtomicReference<ActorRef<Question>> serverRef = new AtomicReference<>();
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    awaitReply(serverRef.get(), r -> new Question("question", r), (String answer) -> { });
                    exit();                            // released while the answer is still awaited
                }
            };
            AtomicBoolean finished = new AtomicBoolean();
            Thread replier = new Thread(() -> {
                try {
                    dev.switchboard.actor.ReplyTo<String> replyTo = asked.get(30, TimeUnit.SECONDS);
                    Await.until("the client has exited", () -> client.state() == ActorState.TERMINATED);
                    Await.until("the server has exited", () -> server.state() == ActorState.TERMINATED);
                    assertThat(finished).as("the finish ended before the awaited answer came").isFalse();
                    replyTo.reply("late answer");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, "replier");
            AtomicReference<Throwable> replierFailed = new AtomicReference<>();
            replier.setUncaughtExceptionHandler((t, e) -> replierFailed.set(e));
            replier.start();
            rt.finish(() -> {
                serverRef.set(server.start());
                client.start().send("go");
            });
            finished.set(true);
            replier.join(30_000);
            assertThat(replierFailed.get()).isNull();
            assertThat(client.deadLetterCount()).isEqualTo(1);
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_AFTER_EXIT);
                assertThat(d.message()).isEqualTo("late answer");
            });
        }
    }

    @Test
    void aReplyAwaitedByATaskOfAnExitedActorKeepsTheFinishOpenUntilItComes() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            java.util.concurrent.CompletableFuture<dev.switchboard.actor.ReplyTo<String>> asked =
                    new java.util.concurrent.CompletableFuture<>();
            Actor<Question> server = new Actor<>() {
                @Override
                protected void process(Question q) {
                    asked.complete(q.replyTo());       // answered later, from outside the runtime
                    exit();
                }
            };
            AtomicReference<ActorRef<Question>> serverRef = new AtomicReference<>();
            DataDrivenFuture<Boolean> clientGone = new DataDrivenFuture<>();
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    // a task of this actor asks once the actor itself has been released
                    TaskRuntime.current().asyncAwait(clientGone, () -> awaitReply(serverRef.get(),
                            r -> new Question("question", r), (String answer) -> { }));
                    exit();
                }

                @Override
                protected void onExit() {
                    clientGone.put(true);
                }
            };
            AtomicBoolean finished = new AtomicBoolean();
            AtomicReference<Throwable> replierFailed = new AtomicReference<>();
            Thread replier = new Thread(() -> {
                try {
                    dev.switchboard.actor.ReplyTo<String> replyTo = asked.get(30, TimeUnit.SECONDS);
                    Await.until("the server has exited", () -> server.state() == ActorState.TERMINATED);
                    assertThat(finished).as("the finish ended before the awaited answer came").isFalse();
                    replyTo.reply("late answer");
                } catch (Throwable e) {
                    replierFailed.set(e);
                }
            }, "replier");
            replier.start();
            rt.finish(() -> {
                serverRef.set(server.start());
                client.start().send("go");
            });
            finished.set(true);
            replier.join(30_000);
            assertThat(replierFailed.get()).isNull();
            Await.until("the late answer is a dead letter", () -> dead.size() == 1);
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_AFTER_EXIT);
                assertThat(d.message()).isEqualTo("late answer");
            });
        }
    }

    record Question(String text, dev.switchboard.actor.ReplyTo<String> replyTo) {
    }

    record Unprintable() {
        @Override
        public String toString() {
            throw new IllegalStateException("toString failed");
        }
    }

    @Test
    void aFailureWhoseMessageCannotBePrintedIsStillRethrown() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Actor<Object> a = new Actor<>() {
                @Override
                protected void process(Object m) {
                    throw new IllegalArgumentException("boom");
                }
            };
            Throwable t = catchThrowable(() -> rt.finish(Duration.ofSeconds(20), () -> {
                ActorRef<Object> ref = a.start();
                ref.send(new Unprintable());
            }));
            assertThat(t).isNotInstanceOf(FinishTimeoutException.class).hasMessage("boom");
            assertThat(t.getSuppressed()[0].getMessage())
                    .contains("its toString() threw java.lang.IllegalStateException");
        }
    }
}
