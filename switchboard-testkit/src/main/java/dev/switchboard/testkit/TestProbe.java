package dev.switchboard.testkit;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.spi.RemoteReply;
import dev.switchboard.spi.Seam;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.opentest4j.AssertionFailedError;

/**
 * An actor of a {@link TestKit}'s runtime whose reference records what it is sent, and assertions that wait for
 * what it recorded. Give {@link #ref()} to the actors under test as the reference they reply or report to, then
 * expect what they send, in the order it arrived:
 *
 * <pre>{@code
 * TestProbe<Pong> replies = kit.probe();
 * ActorRef<Ping> ponger = kit.spawn(new Ponger());
 * ponger.send(new Ping(1, replies.ref()));
 * replies.expectMessage(new Pong(1));
 * replies.expectNoMessage();
 * }</pre>
 *
 * <p>Each {@code expect} and {@code receive} takes the oldest message not taken yet, waiting for it at most the
 * kit's {@linkplain TestKit#timeout() timeout} (or the duration given); a wait that ends without it fails the test
 * with an {@link AssertionError} that says what was expected and what was there. On real workers the test thread
 * blocks meanwhile; under a {@link ScheduleExplorer} the wait runs the program until the message comes or nothing
 * more can happen, and the durations are the run's test clock's. The kit stops its probes when it closes. Use a
 * probe from one test thread.
 *
 * @param <M> the messages the probe accepts
 */
public final class TestProbe<M> {
    private final TestKit kit;
    private final String name;
    /** What the probe actor received and no expectation has taken yet, oldest first. */
    private final ConcurrentLinkedQueue<M> received = new ConcurrentLinkedQueue<>();
    /** The failures the probe's {@link #replyTo()}s were answered with and no expectation has taken yet. */
    private final ConcurrentLinkedQueue<Throwable> replyFailures = new ConcurrentLinkedQueue<>();
    private final ActorRef<M> ref;

    TestProbe(TestKit kit, String name) {
        this.kit = kit;
        this.name = name;
        this.ref = kit.spawn(new Recorder(), name);
    }

    /** The probe actor: records each message and tells the kit, so that a wait looks again. */
    private final class Recorder extends Actor<M> {
        @Override
        protected void process(M message) {
            received.add(message);
            kit.changed();
        }
    }

    /** The reference that records: give it to the actors under test. */
    public ActorRef<M> ref() {
        return ref;
    }

    /**
     * A {@code ReplyTo} whose answer this probe receives: put it in a request to the actor under test, as a Pekko
     * test puts {@code probe.ref()} in one. A reply is received as a message ({@link #expectMessage}, and the rest);
     * a failure, the replier's ({@code ReplyTo.fail}) or the runtime's when no answer can come (a
     * {@code NoReplyException}: the request became a dead letter, or its processing failed), is taken with
     * {@link #expectReplyFailure}. Each call makes a new one, answered once; a null reply, which a probe cannot
     * receive, throws to the replier.
     *
     * <pre>{@code
     * TestProbe<Long> replies = kit.probe();
     * bank.send(new Balance("alice", replies.replyTo()));
     * replies.expectMessage(100L);
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    public ReplyTo<M> replyTo() {
        return (ReplyTo<M>) Seam.remoteReplyTo(ref, new RemoteReply() {
            @Override
            public void answer(Object reply, Throwable failure) {
                if (failure == null) {
                    ref.send((M) reply);                 // received as any message, in order with the others
                } else {
                    failed(failure);
                }
            }

            @Override
            public void gaveUp(Throwable cause) {
                failed(cause);
            }

            @Override
            public String toString() {
                return "the probe '" + name + "'";
            }
        });
    }

    private void failed(Throwable failure) {
        replyFailures.add(failure);
        kit.changed();
    }

    /** Takes the next failure a {@link #replyTo()} of this probe was answered with, and checks it is a {@code type}. */
    public <T extends Throwable> T expectReplyFailure(Class<T> type) {
        return expectReplyFailure(type, kit.timeout());
    }

    /**
     * Takes the next failure a {@link #replyTo()} of this probe was answered with, waiting at most {@code max}, and
     * checks that it is a {@code type}; returns it.
     */
    public <T extends Throwable> T expectReplyFailure(Class<T> type, Duration max) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(max, "max");
        kit.waitFor(() -> !replyFailures.isEmpty(), max);
        Throwable f = replyFailures.poll();
        if (f == null) {
            throw fail("expected a failed reply (a " + type.getSimpleName() + ") within " + Texts.duration(max)
                    + ", but none came" + (received.isEmpty() ? "" : "; replies and messages not taken: "
                    + Texts.list(received)) + kit.whyNothingCame());
        }
        if (!type.isInstance(f)) {
            AssertionError e = fail("expected a failed reply of a " + type.getName() + " but it failed with "
                    + Texts.brief(f));
            e.initCause(f);
            throw e;
        }
        return type.cast(f);
    }

    /** The probe's name (its reference's, too). */
    public String name() {
        return name;
    }

    /** Takes the next message, waiting at most the kit's timeout. */
    public M receiveMessage() {
        return receiveMessage(kit.timeout());
    }

    /** Takes the next message, waiting at most {@code max}. */
    public M receiveMessage(Duration max) {
        M m = next(max);
        if (m == null) {
            throw fail("no message within " + Texts.duration(max) + failedReplies());
        }
        return m;
    }

    /** Takes the next {@code n} messages, waiting at most the kit's timeout for all of them. */
    public List<M> receiveMessages(int n) {
        return receiveMessages(n, kit.timeout());
    }

    /**
     * Takes the next {@code n} messages, waiting at most {@code max} for all of them.
     *
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public List<M> receiveMessages(int n, Duration max) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot receive " + n + " messages");
        }
        Objects.requireNonNull(max, "max");
        if (!kit.waitFor(() -> received.size() >= n, max)) {
            throw fail("received " + received.size() + " of " + n + " messages within " + Texts.duration(max)
                    + ": " + Texts.list(received) + kit.whyNothingCame());
        }
        List<M> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(received.poll());
        }
        return out;
    }

    /** Takes the next message and checks that it {@linkplain Object#equals equals} {@code expected}. */
    public <T extends M> T expectMessage(T expected) {
        return expectMessage(kit.timeout(), expected);
    }

    /**
     * Takes the next message, waiting at most {@code max}, and checks that it {@linkplain Object#equals equals}
     * {@code expected}; returns it.
     */
    @SuppressWarnings("unchecked")
    public <T extends M> T expectMessage(Duration max, T expected) {
        Objects.requireNonNull(expected, "expected");
        M m = next(max);
        if (m == null) {
            throw fail("expected " + Texts.brief(expected) + " within " + Texts.duration(max) + ", but no message came"
                    + failedReplies() + kit.whyNothingCame());
        }
        if (!expected.equals(m)) {
            throw new AssertionFailedError(prefix() + "expected " + Texts.brief(expected) + " but received "
                    + Texts.brief(m), expected, m);
        }
        return (T) m;
    }

    /** Takes the next message and checks that it is a {@code type}; returns it as one. */
    public <T extends M> T expectMessageClass(Class<T> type) {
        return expectMessageClass(type, kit.timeout());
    }

    /** Takes the next message, waiting at most {@code max}, and checks that it is a {@code type}; returns it. */
    public <T extends M> T expectMessageClass(Class<T> type, Duration max) {
        Objects.requireNonNull(type, "type");
        M m = next(max);
        if (m == null) {
            throw fail("expected a " + type.getSimpleName() + " within " + Texts.duration(max)
                    + ", but no message came" + failedReplies() + kit.whyNothingCame());
        }
        if (!type.isInstance(m)) {
            throw fail("expected a " + type.getName() + " but received a " + m.getClass().getName() + ": "
                    + Texts.brief(m));
        }
        return type.cast(m);
    }

    /**
     * Checks that no message comes within the kit's short wait for silence ({@link TestKit#noMessageWait()},
     * 100 ms by default): that nothing is sent that should not be, as far as a test can tell.
     */
    public void expectNoMessage() {
        expectNoMessage(kit.noMessageWait());
    }

    /**
     * Checks that no message comes within {@code within}. Under a {@link ScheduleExplorer} it runs the program
     * until nothing more can happen within {@code within} of the run's clock.
     */
    public void expectNoMessage(Duration within) {
        Objects.requireNonNull(within, "within");
        if (kit.waitFor(() -> !received.isEmpty(), within)) {
            throw fail("expected no message within " + Texts.duration(within) + ", but received "
                    + Texts.brief(received.peek()));
        }
    }

    /**
     * Takes messages, waiting at most {@code max} in all, and gives each to {@code fisher}, which says whether it is
     * one of the fish and whether the fish is complete; returns the fish, in order, once it is. Messages it
     * {@linkplain FishingOutcome#ignore() ignores} are dropped.
     *
     * <pre>{@code
     * List<Event> fish = probe.fishForMessage(Duration.ofSeconds(3), e -> switch (e) {
     *     case Heartbeat h -> FishingOutcome.ignore();
     *     case Progress p  -> FishingOutcome.keepFishing();
     *     case Done d      -> FishingOutcome.complete();
     * });
     * }</pre>
     */
    public List<M> fishForMessage(Duration max, Function<? super M, ? extends FishingOutcome> fisher) {
        Objects.requireNonNull(max, "max");
        Objects.requireNonNull(fisher, "fisher");
        long deadline = kit.nanoTime() + max.toNanos();
        List<M> fish = new ArrayList<>();
        for (;;) {
            // Past the deadline it still takes what comes with no more time passing: under an explorer, the steps
            // that are ready run first (it may have spent the time on timers while they waited).
            M m = next(Duration.ofNanos(Math.max(0, deadline - kit.nanoTime())));
            if (m == null) {
                throw fail("the fish was not complete within " + Texts.duration(max) + "; caught so far: "
                        + Texts.list(fish));
            }
            FishingOutcome outcome = Objects.requireNonNull(fisher.apply(m), "the fisher returned null");
            switch (outcome) {
                case FishingOutcome.Complete c -> {
                    fish.add(m);
                    return fish;
                }
                case FishingOutcome.KeepFishing k -> fish.add(m);
                case FishingOutcome.Ignore i -> {
                    // dropped
                }
                case FishingOutcome.Fail f -> throw fail(f.why() + ": " + Texts.brief(m) + " (caught before it: "
                        + Texts.list(fish) + ")");
            }
        }
    }

    /** The oldest message not taken yet, waiting for one at most {@code max}; null if none came. */
    private M next(Duration max) {
        Objects.requireNonNull(max, "max");
        kit.waitFor(() -> !received.isEmpty(), max);
        return received.poll();
    }

    /** "; a reply failed instead: ..." when a {@link #replyTo()}'s failure waits to be taken, or "". */
    private String failedReplies() {
        Throwable f = replyFailures.peek();
        return f == null ? "" : "; a reply failed instead (expectReplyFailure takes it): " + Texts.brief(f);
    }

    private AssertionError fail(String what) {
        return new AssertionFailedError(prefix() + what);
    }

    private String prefix() {
        return "probe '" + name + "': ";
    }

    @Override
    public String toString() {
        return "TestProbe[" + ref + ", " + received.size() + " not taken]";
    }
}
