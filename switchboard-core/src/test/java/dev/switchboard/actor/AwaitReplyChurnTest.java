package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * awaitReply under churn: 64 requesters chain timed awaitReplies to 8 responders that answer, answer from a task,
 * ignore or have exited, sometimes two at once, and exit now and then with both still awaited. Every awaitReply
 * ends exactly once — its handler runs, with the answer, a timeout or a "no reply", or, the requester having
 * exited, its answer is a dead letter after exit — and the finish ends: the holds a released requester leaves
 * behind are all completed. (That the finish waits for them is {@code FailureReportingTest}'s.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AwaitReplyChurnTest {
    sealed interface Msg permits Go, Q {
    }

    record Go() implements Msg {
    }

    record Q(long id, ReplyTo<Long> replyTo) implements Msg {
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
        x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }

    /** Answers at once (6 in 10), from a task (1 in 10), never (2 in 10), or exits (1 in 100); exits on Go. */
    static final class Responder extends Actor<Msg> {
        @Override
        protected void process(Msg m) {
            if (!(m instanceof Q q)) {
                exit();                              // every requester has exited
                return;
            }
            long r = Long.remainderUnsigned(mix(q.id()), 100);
            if (r < 60) {
                q.replyTo().reply(q.id());
            } else if (r < 70) {
                TaskRuntime.current().async(() -> q.replyTo().reply(q.id()));
            } else if (r < 99) {
                // ignored: the asker times out
            } else {
                exit();                              // this request and the later ones: "no reply"
            }
        }
    }

    static final class Counts {
        final AtomicLong started = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        final AtomicLong timedOut = new AtomicLong();
        final AtomicLong unanswered = new AtomicLong();
        final List<String> wrong = new CopyOnWriteArrayList<>();

        long handled() {
            return answered.get() + timedOut.get() + unanswered.get();
        }
    }

    /** Chains up to 30 timed awaitReplies; sometimes asks twice at once, sometimes exits with asks outstanding. */
    static final class Requester extends Actor<Msg> {
        private final List<ActorRef<Msg>> responders;
        private final Counts counts;
        private final long seed;
        private final java.util.concurrent.atomic.AtomicInteger live;
        private int step;

        Requester(List<ActorRef<Msg>> responders, Counts counts, long seed,
                  java.util.concurrent.atomic.AtomicInteger live) {
            this.responders = responders;
            this.counts = counts;
            this.seed = seed;
            this.live = live;
        }

        @Override
        protected void onExit() {
            if (live.decrementAndGet() == 0) {       // the last requester ends the responders
                responders.forEach(r -> r.send(new Go()));
            }
        }

        @Override
        protected void process(Msg m) {
            next();
        }

        private void next() {
            long r = mix(seed * 1_000 + step++);
            if (step > 30 || Long.remainderUnsigned(r, 20) == 0) {
                exit();                              // nothing outstanding: the chain ends here
                return;
            }
            ask(r);
            if (Long.remainderUnsigned(r >>> 8, 5) == 0) {
                ask(mix(r));                         // two at once
                if (Long.remainderUnsigned(r >>> 16, 3) == 0) {
                    exit();                          // released with both still awaited
                }
            }
        }

        private void ask(long r) {
            long id = r & Long.MAX_VALUE;
            ActorRef<Msg> to = responders.get((int) Long.remainderUnsigned(r, responders.size()));
            Duration timeout = Duration.ofMillis(1 + Long.remainderUnsigned(r >>> 24, 5));
            counts.started.incrementAndGet();
            awaitReply(to, (ReplyTo<Long> replyTo) -> new Q(id, replyTo), timeout, (Long value, Throwable f) -> {
                if (f == null && value == id) {
                    counts.answered.incrementAndGet();
                } else if (f instanceof ReplyTimeoutException) {
                    counts.timedOut.incrementAndGet();
                } else if (f instanceof NoReplyException) {
                    counts.unanswered.incrementAndGet();
                } else {
                    counts.wrong.add("the awaitReply " + id + " ended with " + (f != null ? f : value));
                }
                if (state() != ActorState.TERMINATED) {
                    next();
                }
            });
        }
    }

    @RepeatedTest(3)
    void everyAwaitReplyEndsOnceAndTheFinishEnds() {
        Counts counts = new Counts();
        AtomicLong afterExit = new AtomicLong();
        AtomicLong tooLate = new AtomicLong();
        try (TaskRuntime rt = Runtimes.workers(2)) {
            DeadLetter.subscribe(rt, d -> {
                switch (d.reason()) {
                    case REPLY_AFTER_EXIT -> afterExit.incrementAndGet();
                    case REPLY_TOO_LATE -> tooLate.incrementAndGet();
                    default -> { }
                }
            });
            int n = 64;
            java.util.concurrent.atomic.AtomicInteger live = new java.util.concurrent.atomic.AtomicInteger(n);
            rt.finish(Duration.ofSeconds(60), () -> {
                List<ActorRef<Msg>> responders = new java.util.ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    responders.add(new Responder().start());
                }
                for (int i = 0; i < n; i++) {
                    new Requester(responders, counts, i, live).start().send(new Go());
                }
            });
            assertThat(live.get()).isZero();
            assertThat(counts.wrong).isEmpty();
            assertThat(counts.started.get()).isGreaterThan(500);
            // a requester released with asks outstanding hears of them as dead letters (after its finish at the
            // latest: a hold keeps the finish open until each answer is queued)
            Await.until("every awaitReply ended once: " + counts.started + " started, " + counts.handled()
                    + " handled, " + afterExit + " after exit", () ->
                    counts.started.get() == counts.handled() + afterExit.get());
            assertThat(counts.answered.get()).isPositive();
            assertThat(counts.timedOut.get()).isPositive();
            assertThat(afterExit.get()).isPositive();
        }
    }
}
