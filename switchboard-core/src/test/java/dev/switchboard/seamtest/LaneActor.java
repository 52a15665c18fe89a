package dev.switchboard.seamtest;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.Dispatcher;
import dev.switchboard.spi.MessageProcessing;
import dev.switchboard.spi.Seam;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A test-only actor kind built on the dispatch seam alone (this package sees nothing of the core but its public
 * and spi types), shaped like a transactional actor: messages in the {@link Lane#EXCLUSIVE} mailbox run one at a
 * time with nothing else running; messages in the {@link Lane#SHARED} mailbox run several at once, up to a width
 * that a periodic timer raises (starting at {@code initialWidth}, doubling every period up to {@code maxWidth});
 * an attempt that throws {@link Retry} is rolled back and run again, the messages it sent dropped; the messages
 * sent by the attempt that completes go out when it completes. Every finished message leaves an {@link Outcome}.
 */
public abstract class LaneActor<M> extends Selector<M, LaneActor.Lane> {
    public enum Lane { EXCLUSIVE, SHARED }

    /** Thrown by {@code process} to roll the attempt back and run it again. */
    public static final class Retry extends RuntimeException {
        public Retry() {
            super("retry", null, false, false);
        }
    }

    /** How a message ended: in which lane, after how many attempts, or with which failure. */
    public record Outcome(Lane lane, int attempts, Throwable failure) {
    }

    /** What a sent message was, while an attempt holds it. */
    private record Held(ActorRef<?> to, int mailbox, Object message) {
    }

    public final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
    /** Periods the timer has counted. */
    public final AtomicInteger periods = new AtomicInteger();
    /** The largest number of messages seen running at once, and whether an exclusive one ever had company. */
    public final AtomicInteger maxRunning = new AtomicInteger();
    public final AtomicInteger exclusiveOverlaps = new AtomicInteger();
    /** The timer, once armed (by the first turn); cancelled when the actor terminates. */
    public volatile ScheduledFuture<?> timer;
    /** How many times the policy heard that its actor terminated. */
    public final AtomicInteger terminations = new AtomicInteger();
    private volatile Dispatcher dispatcher;

    /** Asks for a turn, from any thread (as the timer does). */
    public void requestTurn() {
        dispatcher.requestTurn();
    }

    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger runningExclusive = new AtomicInteger();

    protected LaneActor(int initialWidth, int maxWidth, Duration period) {
        super(Lane.class);
        Seam.bind(this, new Policy(initialWidth, maxWidth, period));
    }

    /** The current width of the shared lane (raised by the timer). */
    public int width() {
        return policyWidth;
    }

    private volatile int policyWidth;

    private final class Policy implements DispatchPolicy {
        private final ArrayDeque<Object> exclusive = new ArrayDeque<>();
        private final ArrayDeque<Object> shared = new ArrayDeque<>();
        private final int maxWidth;
        private final Duration period;
        private Dispatcher dispatcher;
        private int sharedRunning;
        private boolean exclusiveRunning;

        Policy(int initialWidth, int maxWidth, Duration period) {
            policyWidth = initialWidth;
            this.maxWidth = maxWidth;
            this.period = period;
        }

        @Override
        public void bound(ActorRef<?> actor, Dispatcher d) {
            dispatcher = d;
            LaneActor.this.dispatcher = d;
        }

        @Override
        public void arrived(Object envelope, Object message, int mailbox) {
            (mailbox == Lane.EXCLUSIVE.ordinal() ? exclusive : shared).add(envelope);
        }

        @Override
        public Object process(MessageProcessing processing) {
            Lane lane = (Lane) processing.ticket();
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            if (lane == Lane.EXCLUSIVE) {
                runningExclusive.incrementAndGet();
            }
            if (runningExclusive.get() > 0 && now > 1) {
                exclusiveOverlaps.incrementAndGet();
            }
            try {
                for (int attempt = 1; ; attempt++) {
                    List<Held> held = new ArrayList<>();
                    try (Seam.Interception sends = Seam.interceptSends((to, mailbox, message) ->
                            held.add(new Held(to, mailbox, message)))) {
                        processing.process();
                    } catch (Retry rolledBack) {
                        continue;                          // its sends are dropped with `held`
                    }
                    for (Held h : held) {                  // committed: its sends go out now, once
                        Seam.sendNow(h.to(), h.mailbox(), h.message());
                    }
                    return attempt;
                }
            } finally {
                if (lane == Lane.EXCLUSIVE) {
                    runningExclusive.decrementAndGet();
                }
                running.decrementAndGet();
            }
        }

        @Override
        public void finished(Object ticket, Object result, Throwable failure) {
            Lane lane = (Lane) ticket;
            if (lane == Lane.EXCLUSIVE) {
                exclusiveRunning = false;
            } else {
                sharedRunning--;
            }
            outcomes.add(new Outcome(lane, result == null ? 0 : (Integer) result, failure));
        }

        @Override
        public void turn() {
            if (timer == null) {
                timer = dispatcher.scheduleAtFixedRate(period, () -> {
                    periods.incrementAndGet();
                    if (policyWidth < maxWidth) {
                        policyWidth = Math.max(1, policyWidth * 2);
                        dispatcher.requestTurn();
                    }
                });
            }
            if (exclusiveRunning) {
                return;
            }
            if (!exclusive.isEmpty()) {                   // an exclusive message waits for the lane to empty
                if (sharedRunning == 0) {
                    exclusiveRunning = true;
                    dispatcher.start(exclusive.poll(), Lane.EXCLUSIVE);
                }
                return;
            }
            while (!shared.isEmpty() && sharedRunning < Math.min(policyWidth, maxWidth)) {
                sharedRunning++;
                dispatcher.start(shared.poll(), Lane.SHARED);
            }
        }

        @Override
        public void terminated(Consumer<Object> deadLetters) {
            terminations.incrementAndGet();
            ScheduledFuture<?> t = timer;
            if (t != null) {
                t.cancel(false);
            }
            exclusive.forEach(deadLetters);
            shared.forEach(deadLetters);
            exclusive.clear();
            shared.clear();
        }

        @Override
        public int held() {
            return exclusive.size() + shared.size();
        }

        @Override
        public String toString() {
            return "LanePolicy";
        }
    }
}
