package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTimeoutException;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A runtime on a {@link ManualClock}: its timed actions run when the test advances the clock past their time and
 * not before. "Not before" is checked once the runtime has quiesced: after a message sent later than anything the
 * clock could have triggered has made a round trip through the same actor (its mailbox is FIFO).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ManualClockTest {
    sealed interface Msg permits Fire, Ping, Ignored, Stop {
    }

    record Fire() implements Msg {
    }

    record Ping(ReplyTo<Boolean> replyTo) implements Msg {
    }

    record Ignored(ReplyTo<Long> replyTo) implements Msg {
    }

    record Stop() implements Msg {
    }

    /** Starts a single timer of {@code delay} when it starts (if not null); counts the timer's messages. */
    static final class Timed extends Actor<Msg> {
        final Duration delay;
        final AtomicInteger fired = new AtomicInteger();
        volatile boolean started;

        Timed(Duration delay) {
            this.delay = delay;
        }

        @Override
        protected void onStart() {
            if (delay != null) {
                startSingleTimer("t", new Fire(), delay);
            }
            started = true;
        }

        @Override
        protected void process(Msg m) {
            switch (m) {
                case Fire f -> fired.incrementAndGet();
                case Ping p -> p.replyTo().reply(true);
                case Ignored i -> { }
                case Stop s -> exit();
            }
        }
    }

    /** Starts {@code actor} in a finish on another thread; returns the finish, which ends when the actor exits. */
    private static CompletableFuture<Void> startElsewhere(TaskRuntime rt, Timed actor,
                                                         AtomicReference<ActorRef<Msg>> ref) {
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> ref.set(actor.start())));
        Await.until("the actor started", () -> actor.started && ref.get() != null);
        return done;
    }

    /** A message round trip through {@code ref}: what was sent to it before has been processed. */
    private static void roundTrip(ActorRef<Msg> ref) throws Exception {
        assertThat(ref.<Boolean>ask(Ping::new, Duration.ofDays(1)).get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    @Test
    void anActorTimerFiresWhenTheClockPassesItsDelayAndNotBefore() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            Timed actor = new Timed(Duration.ofSeconds(5));
            AtomicReference<ActorRef<Msg>> ref = new AtomicReference<>();
            CompletableFuture<Void> done = startElsewhere(rt, actor, ref);

            clock.advance(Duration.ofSeconds(5).minusNanos(1));
            roundTrip(ref.get());
            assertThat(actor.fired).as("fired 1 ns before its delay").hasValue(0);

            clock.advance(1);
            roundTrip(ref.get());
            assertThat(actor.fired).as("fired at its delay").hasValue(1);

            clock.advance(Duration.ofSeconds(60));
            roundTrip(ref.get());
            assertThat(actor.fired).as("a single timer fires once").hasValue(1);

            ref.get().send(new Stop());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void anAskTimesOutWhenTheClockPassesItsTimeoutAndNotBefore() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            Timed actor = new Timed(null);
            AtomicReference<ActorRef<Msg>> ref = new AtomicReference<>();
            CompletableFuture<Void> done = startElsewhere(rt, actor, ref);

            CompletableFuture<Long> answer = ref.get().ask(Ignored::new, Duration.ofSeconds(3));
            clock.advance(Duration.ofSeconds(3).minusNanos(1));
            roundTrip(ref.get());
            assertThat(answer).as("timed out 1 ns early").isNotDone();

            clock.advance(1);
            Await.until("the ask timed out", answer::isDone);
            assertThat(answer).isCompletedExceptionally();
            try {
                answer.get();
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(ReplyTimeoutException.class);
            }

            ref.get().send(new Stop());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void theTimerServiceRunsOneShotFixedRateAndFixedDelayActionsByTheClock() {
        ManualClock clock = new ManualClock(1_000);
        Scheduler s = new Scheduler("manual-timers", 1, 64, 64, 0, 0, clock, null);
        try {
            TimerService timers = s.timers();
            AtomicInteger once = new AtomicInteger();
            AtomicInteger rate = new AtomicInteger();
            AtomicInteger delay = new AtomicInteger();
            AtomicInteger cancelled = new AtomicInteger();
            timers.schedule(10, once::incrementAndGet);
            ScheduledFuture<?> r = timers.scheduleAtFixedRate(5, 10, rate::incrementAndGet);
            timers.scheduleWithFixedDelay(0, 20, delay::incrementAndGet);
            ScheduledFuture<?> c = timers.schedule(10, cancelled::incrementAndGet);
            assertThat(c.getDelay(TimeUnit.NANOSECONDS)).isEqualTo(10);
            assertThat(c.cancel(false)).isTrue();

            clock.advance(0);
            assertThat(new int[] {once.get(), rate.get(), delay.get()}).containsExactly(0, 0, 1);
            clock.advance(9);
            assertThat(new int[] {once.get(), rate.get(), delay.get()}).containsExactly(0, 1, 1);
            clock.advance(1);
            assertThat(new int[] {once.get(), rate.get(), delay.get()}).containsExactly(1, 1, 1);
            clock.advance(45);                       // now 55: rate at 15, 25, 35, 45, 55; delay at 20, 40
            assertThat(new int[] {once.get(), rate.get(), delay.get()}).containsExactly(1, 6, 3);

            assertThat(r.cancel(false)).isTrue();
            clock.advance(100);
            assertThat(rate).hasValue(6);
            assertThat(cancelled).hasValue(0);
            assertThat(c.isCancelled()).isTrue();
            assertThat(r.isDone()).isTrue();
        } finally {
            s.close(10, TimeUnit.SECONDS);
        }
    }
}
