package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.ClassPaths;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** ask: typed requests from plain code, tasks and actors, each with a timeout that names what it waited for. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AskTest {
    sealed interface BankMsg {
    }

    record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {
        @Override
        public String toString() {
            return "Balance[" + account + "]";
        }
    }

    /** Answered only once {@code release} is put (by a task of the bank: the bank goes on meanwhile). */
    record SlowBalance(String account, ReplyTo<Long> replyTo) implements BankMsg {
        @Override
        public String toString() {
            return "SlowBalance[" + account + "]";
        }
    }

    /** Never answered. */
    record Ignored(ReplyTo<Long> replyTo) implements BankMsg {
        @Override
        public String toString() {
            return "Ignored";
        }
    }

    record Close() implements BankMsg {
    }

    static final class Bank extends Actor<BankMsg> {
        final DataDrivenFuture<Boolean> release = new DataDrivenFuture<>();
        final DataDrivenFuture<Boolean> lateReplySent = new DataDrivenFuture<>();
        final AtomicReference<Throwable> lateReplyFailure = new AtomicReference<>();

        @Override
        protected void process(BankMsg m) {
            switch (m) {
                case Balance b -> b.replyTo().reply(b.account().length() * 100L);
                case SlowBalance b -> TaskRuntime.current().asyncAwait(release, () -> {
                    lateReplyFailure.set(catchThrowable(() -> b.replyTo().reply(7L)));
                    lateReplySent.put(true);
                });
                case Ignored i -> { }
                case Close c -> exit();
            }
        }
    }

    @Test
    void askFromPlainCodeCompletesWithTheTypedReply() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> bank = new Bank().start("bank");
                answer.set(bank.ask(replyTo -> new Balance("alice", replyTo), Duration.ofSeconds(20)));
                bank.send(new Close());
            });
            assertThat(answer.get().get(20, TimeUnit.SECONDS)).isEqualTo(500L);
        }
    }

    @Test
    void askFromATaskAndFromAnActor() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            List<Long> got = new CopyOnWriteArrayList<>();
            rt.finish(() -> {
                ActorRef<BankMsg> bank = new Bank().start("bank");
                CompletableFuture<Long> fromTask = new CompletableFuture<>();
                CompletableFuture<Long> fromActor = new CompletableFuture<>();
                rt.async(() -> bank.<Long>ask(r -> new Balance("bob", r), Duration.ofSeconds(20))
                        .whenComplete((v, f) -> fromTask.complete(v)));
                new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        if (m.startsWith("got ")) {     // the answer comes back to the actor as a message
                            fromActor.complete(Long.parseLong(m.substring(4)));
                            exit();
                        } else {
                            bank.<Long>ask(r -> new Balance(m, r), Duration.ofSeconds(20))
                                    .thenAccept(v -> self().send("got " + v));
                        }
                    }
                }.start("asker").send("carol");
                CompletableFuture.allOf(fromTask, fromActor).thenRun(() -> {
                    got.add(fromTask.join());
                    got.add(fromActor.join());
                    bank.send(new Close());
                });
            });
            assertThat(got).containsExactly(300L, 500L);
        }
    }

    @Test
    void aTaskAwaitsAnAskWithoutBlockingAndItsFinishWaitsForTheAnswer() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {     // one worker: a blocking wait would stall the bank
            AtomicReference<Long> seen = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Bank bank = new Bank();
            rt.finish(() -> {
                ActorRef<BankMsg> ref = bank.start("bank");
                rt.async(() -> {
                    DataDrivenFuture<Long> balance = DataDrivenFuture.of(ref.ask(r -> new Balance("jo", r),
                            Duration.ofSeconds(20)));
                    DataDrivenFuture<Long> none = DataDrivenFuture.of(ref.ask(Ignored::new, Duration.ofMillis(50)));
                    rt.asyncAwait(balance, none, () -> {
                        seen.set(balance.get());
                        failed.set(catchThrowable(none::get));
                        ref.send(new Close());
                    });
                });
            });
            assertThat(seen.get()).isEqualTo(200L);
            assertThat(failed.get()).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(ReplyTimeoutException.class);
        }
    }

    @Test
    void noReplyTimesOutNamingTheActorTheRequestAndWhoAsked() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            AtomicReference<ActorRef<BankMsg>> bank = new AtomicReference<>();
            rt.finish(() -> {
                bank.set(new Bank().start("bank"));
                answer.set(bank.get().ask(Ignored::new, Duration.ofMillis(200)));
                rt.async(() -> {
                    Await.until("the timeout", () -> answer.get().isDone());
                    bank.get().send(new Close());
                });
            });
            Throwable failure = catchThrowable(() -> answer.get().join());
            assertThat(failure).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(ReplyTimeoutException.class)
                    .hasMessageMatching("bank@\\d+ did not reply to Ignored within 200 ms \\(asked by thread '.+'\\)");
            ReplyTimeoutException timeout = (ReplyTimeoutException) failure.getCause();
            assertThat(timeout.target()).isEqualTo(bank.get());
            assertThat(timeout.requester()).isNull();
            assertThat(timeout.timeout()).isEqualTo(Duration.ofMillis(200));
        }
    }

    /** A request's reply channel prints the actor the request went to, as the one that answers it. */
    @Test
    void aReplyToPrintsTheActorTheRequestWentTo() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<String> printed = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> bank = new Bank().start("bank");
                bank.ask((ReplyTo<Long> r) -> {
                    printed.set(r.toString());
                    return new Ignored(r);
                }, Duration.ofMillis(10));
                bank.send(new Close());
            });
            assertThat(printed.get()).matches("replyTo\\(request to bank@\\d+\\)");
        }
    }

    /** The timeout says why no reply came when the actor asked was never started: the request waits for it. */
    @Test
    void aTimeoutOfAnAskToAnActorNeverStartedSaysSo() {
        final class NeverStarted extends Actor<BankMsg> {

            @Override
            protected void process(BankMsg m) {
            }
        }
        NeverStarted actor = new NeverStarted();
        CompletableFuture<Long> answer = actor.ref().ask(Ignored::new, Duration.ofMillis(100));
        assertThat(catchThrowable(answer::join)).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(ReplyTimeoutException.class)
                .hasMessageContaining("did not reply to Ignored within 100 ms")
                .hasMessageEndingWith("(" + actor + " was never started: the request waits in its mailbox)");
        assertThat(actor.mailboxSize()).isEqualTo(1);
    }

    /** An actor whose toString throws still lets an ask to it time out: the runtime describes it by its reference. */
    @Test
    void anAskToAnActorWhoseToStringThrowsStillTimesOut() {
        final class Unprintable extends Actor<BankMsg> {

            @Override
            protected void process(BankMsg m) {
            }

            @Override
            public String toString() {
                throw new IllegalStateException("not printable");
            }
        }
        CompletableFuture<Long> answer = new Unprintable().ref().ask(Ignored::new, Duration.ofMillis(50));
        assertThat(catchThrowable(answer::join)).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(ReplyTimeoutException.class).hasMessageContaining("was never started");
    }

    @Test
    void aTimeoutOfAnAskFromAnActorNamesTheActor() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> bank = new Bank().start("bank");
                new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        if (m.equals("ask")) {
                            bank.<Long>ask(Ignored::new, Duration.ofMillis(100)).whenComplete((v, f) -> {
                                failure.set(f);
                                self().send("done");
                            });
                        } else {
                            bank.send(new Close());
                            exit();
                        }
                    }
                }.start("asker").send("ask");
            });
            assertThat(failure.get()).isInstanceOf(ReplyTimeoutException.class)
                    .hasMessageMatching("bank@\\d+ did not reply to Ignored within 100 ms \\(asked by asker@\\d+\\)");
            assertThat(((ReplyTimeoutException) failure.get()).requester().name()).isEqualTo("asker");
        }
    }

    @Test
    void aLateReplyIsADeadLetterOfTheActorAskedAndDoesNotDisturbTheReplier() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Bank bank = new Bank();
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> ref = bank.start("bank");
                answer.set(ref.ask(r -> new SlowBalance("dave", r), Duration.ofMillis(100)));
                answer.get().whenComplete((v, f) -> bank.release.put(true));   // after the timeout: too late
                rt.asyncAwait(bank.lateReplySent, () -> ref.send(new Close()));
            });
            assertThat(catchThrowable(answer.get()::join)).cause().isInstanceOf(ReplyTimeoutException.class);
            assertThat(bank.lateReplyFailure.get()).as("the late replier is not disturbed").isNull();
            assertThat(bank.processedCount()).isEqualTo(2);
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_TOO_LATE);
                assertThat(d.message()).isEqualTo(7L);
                assertThat(d.recipient().name()).isEqualTo("bank");
            });
        }
    }

    @Test
    void aReplyAfterTheCallerCancelledIsADeadLetter() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Bank bank = new Bank();
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> ref = bank.start("bank");
                answer.set(ref.ask(r -> new SlowBalance("erin", r), Duration.ofSeconds(20)));
                answer.get().cancel(false);
                bank.release.put(true);
                rt.asyncAwait(bank.lateReplySent, () -> ref.send(new Close()));
            });
            assertThat(catchThrowable(answer.get()::join)).isInstanceOf(CancellationException.class);
            assertThat(dead).singleElement().extracting(DeadLetter::reason).isEqualTo(DeadLetter.Reason.REPLY_TOO_LATE);
        }
    }

    @Test
    void askingAnActorThatExitedFailsAtOnceNamingIt() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<ActorRef<BankMsg>> bank = new AtomicReference<>();
            rt.finish(() -> {
                bank.set(new Bank().start("bank"));
                bank.get().send(new Close());
            });
            CompletableFuture<Long> answer = bank.get().ask(r -> new Balance("frank", r), Duration.ofSeconds(20));
            assertThat(answer).isCompletedExceptionally();
            assertThat(catchThrowable(answer::join)).cause().isInstanceOf(NoReplyException.class)
                    .hasMessageMatching("bank@\\d+ terminated before processing the request Balance\\[frank\\]");
        }
    }

    @Test
    void aReceiverThatFailsWhileProcessingTheRequestFailsTheAsk() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<BankMsg> broken = new Actor<BankMsg>() {
                    @Override
                    protected void process(BankMsg m) {
                        throw new IllegalStateException("ledger corrupted");
                    }
                }.start("broken");
                answer.set(broken.ask(r -> new Balance("gina", r), Duration.ofSeconds(20)));
            }));
            assertThat(thrown).hasMessage("ledger corrupted");
            assertThat(catchThrowable(answer.get()::join)).cause().isInstanceOf(NoReplyException.class)
                    .hasMessageContaining("failed while processing the request Balance[gina] without answering it");
        }
    }

    @Test
    void aSessionActorMayHandTheRequestOnAndExit() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            DeadLetter.subscribe(rt, dead::add);
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> worker = new Bank().start("worker");
                ActorRef<BankMsg> session = new Actor<BankMsg>() {
                    @Override
                    protected void process(BankMsg m) {
                        if (m instanceof Balance b) {
                            worker.send(b);                       // the worker answers, later
                            worker.send(new Close());
                        }
                        exit();
                    }
                }.start("session");
                answer.set(session.ask(r -> new Balance("kim", r), Duration.ofSeconds(20)));
            });
            assertThat(answer.get().join()).isEqualTo(300L);
            assertThat(dead).isEmpty();
        }
    }

    @Test
    void aRequestThatTimedOutAndThenBecameADeadLetterIsCountedOnce() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            DeadLetter.subscribe(rt, dead::add);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Object> busy = new Actor<Object>() {
                    @Override
                    protected void process(Object m) {
                        try {
                            go.await(20, TimeUnit.SECONDS);          // busy while the ask times out
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        exit();                                   // the request is still in the mailbox
                    }
                }.start("busy");
                busy.send("work");
                answer.set(busy.ask(r -> new Balance("lee", r), Duration.ofMillis(20)));
                answer.get().whenComplete((v, f) -> go.countDown());
            });
            assertThat(catchThrowable(answer.get()::join)).cause().isInstanceOf(ReplyTimeoutException.class);
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.UNPROCESSED_AT_EXIT);
                assertThat(d.message()).isInstanceOf(Balance.class);
            });
        }
    }

    @Test
    void aReplyAfterTheCloseIsStillALateReplyNotAMessageTheCloseKept() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        TaskRuntime rt = TaskRuntime.create(2);
        DeadLetter.subscribe(rt, dead::add);
        java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch processing = new java.util.concurrent.CountDownLatch(1);
        AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
        Thread body = new Thread(() -> catchThrowable(() -> rt.finish(() -> {
            ActorRef<BankMsg> slow = new Actor<BankMsg>() {
                @Override
                protected void process(BankMsg m) {
                    processing.countDown();
                    try {
                        never.await(20, TimeUnit.SECONDS);           // until the close interrupts it
                    } catch (InterruptedException e) {
                        ((Balance) m).replyTo().reply(1L);          // answers after its runtime closed
                    }
                }
            }.start("slow");
            answer.set(slow.ask(r -> new Balance("oz", r), Duration.ofMillis(20)));
        })), "finish-body");
        body.start();
        Await.until("the ask's timeout", () -> answer.get() != null && answer.get().isDone());
        assertThat(processing.await(20, TimeUnit.SECONDS)).as("the request in process()").isTrue();
        rt.close(Duration.ofMillis(100));                              // interrupts the processing
        body.join(TimeUnit.SECONDS.toMillis(20));
        Await.until("the late reply", () -> dead.stream().anyMatch(d -> Long.valueOf(1L).equals(d.message())));
        DeadLetter late = dead.stream().filter(d -> Long.valueOf(1L).equals(d.message())).findFirst().orElseThrow();
        assertThat(late.reason()).isEqualTo(DeadLetter.Reason.REPLY_TOO_LATE);
        assertThat(late.toString()).as("the recipient of an ask's late reply is the actor asked, which sent it")
                .matches("REPLY_TOO_LATE: 1, a reply slow@\\d+ sent or awaited");
    }

    @Test
    void anAskWithAnEnormousTimeoutIsAnAskWithoutPracticalLimit() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> bank = new Bank().start();
                answer.set(bank.ask(r -> new Balance("nat", r), Duration.ofSeconds(Long.MAX_VALUE)));
                bank.send(new Close());
            });
            assertThat(answer.get().join()).isEqualTo(300L);
        }
    }

    @Test
    void aReceiverMayAnswerWithAFailure() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<BankMsg> refusing = new Actor<BankMsg>() {
                    @Override
                    protected void process(BankMsg m) {
                        if (m instanceof Balance b) {
                            b.replyTo().fail(new SecurityException("no such account: " + b.account()));
                        }
                        exit();
                    }
                }.start();
                answer.set(refusing.ask(r -> new Balance("hank", r), Duration.ofSeconds(20)));
            });
            assertThat(catchThrowable(answer.get()::join)).cause().isInstanceOf(SecurityException.class)
                    .hasMessage("no such account: hank");
        }
    }

    enum Box { ACCOUNTS, CONTROL }

    @Test
    void askIntoANamedMailboxOfASelector() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            List<Integer> mailboxes = new ArrayList<>();
            AtomicReference<CompletableFuture<Long>> answer = new AtomicReference<>();
            rt.finish(() -> {
                SelectorRef<BankMsg, Box> bank = new Selector<BankMsg, Box>(Box.class) {
                    @Override
                    protected void process(BankMsg m) {
                        mailboxes.add(currentMailbox());
                        if (m instanceof Balance b) {
                            b.replyTo().reply(1L);
                        }
                        exit();
                    }
                }.start();
                answer.set(bank.ask(Box.CONTROL, r -> new Balance("ivy", r), Duration.ofSeconds(20)));
            });
            assertThat(answer.get().join()).isEqualTo(1L);
            assertThat(mailboxes).containsExactly(1);
        }
    }

    @Test
    void badArgumentsAreRefusedClearly() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            rt.finish(() -> {
                ActorRef<BankMsg> bank = new Bank().start("bank");
                assertThatThrownBy(() -> bank.ask(Ignored::new, Duration.ZERO))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive timeout");
                assertThatThrownBy(() -> bank.<Long>ask(r -> null, Duration.ofSeconds(1)))
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("built a null request");
                assertThatThrownBy(() -> bank.ask(null, Duration.ofSeconds(1))).isInstanceOf(NullPointerException.class);
                bank.send(new Close());
            });
        }
    }

    /** The point of a ReplyTo in the request: answering with the wrong type does not compile. */
    @Test
    void aWrongReplyTypeIsACompileError() {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK with javac").isNotNull();
        String source = """
                import dev.switchboard.actor.*;
                record Balance(String account, ReplyTo<Long> replyTo) {}
                class Bank extends Actor<Balance> {
                    protected void process(Balance b) { b.replyTo().reply("one hundred"); }
                }
                """;
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Bank.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) throws IOException {
                return source;
            }
        };
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean compiled = javac.getTask(null, null, diagnostics,
                List.of("-classpath", ClassPaths.everything(), "-proc:none", "-d",
                        System.getProperty("java.io.tmpdir")), null, List.of(file)).call();
        assertThat(compiled).isFalse();
        assertThat(diagnostics.getDiagnostics()).anySatisfy(d -> {
            assertThat(d.getKind()).isEqualTo(Diagnostic.Kind.ERROR);
            assertThat(d.getMessage(null)).contains("String cannot be converted to java.lang.Long");
        });
    }
}
