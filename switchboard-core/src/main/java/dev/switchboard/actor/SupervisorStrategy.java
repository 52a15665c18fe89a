package dev.switchboard.actor;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a parent does when a child it started with {@code startChild} fails: restart it, resume it, stop it, or
 * escalate the failure to itself. Immutable; the {@code with...} methods return a new strategy.
 *
 * <pre>{@code
 * ActorRef<Job> worker = startChild(() -> new Worker(db),
 *         SupervisorStrategy.restart()
 *                 .withLimit(5, Duration.ofMinutes(1))                                // then stop, and report
 *                 .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10), 0.2));  // 100 ms, 200 ms, ... 10 s
 * }</pre>
 *
 * <ul>
 *   <li>{@link Directive#RESTART}: a fresh instance from the factory takes the child's place behind the same
 *       reference (unless the child's start failed and the strategy has neither a limit nor a backoff: then it
 *       stops); the messages queued in its mailbox stay there and go to the new instance, in order. The
 *       message that failed is a {@link DeadLetter.Reason#FAILED_PROCESSING} dead letter, or, with
 *       {@link #retryingFailedMessage()}, processed once more by the new instance first. What else a restart
 *       does (timers, replies awaited, become, pause, children, a selector's mailboxes) is in the guide.</li>
 *   <li>{@link Directive#RESUME}: the child keeps its instance and its state and goes on with its next message;
 *       the failed message is dropped (or retried once) as for a restart.</li>
 *   <li>{@link Directive#STOP}: the child ends, as after {@code exit()}; its watchers hear
 *       {@link Terminated.Reason#STOPPED} with the failure.</li>
 *   <li>{@link Directive#ESCALATE}: the child ends, and its parent fails with the same exception, as if its own
 *       processing had thrown it: the parent's supervisor decides, or, for a parent that has none, the failure
 *       reaches the parent's finish.</li>
 * </ul>
 *
 * <p>A failure the strategy handled (restart, resume, stop) does not reach any finish; it is logged as it
 * happens. One it gave up on (more restarts than {@link #withLimit} allows, a factory that throws) ends the child
 * and reaches the child's finish, with the restarts and their causes.
 */
public final class SupervisorStrategy {
    /** What the parent does with a failed child. */
    public enum Directive {
        /** A fresh instance takes the child's place behind the same reference. */
        RESTART,
        /** The child keeps its instance and state and goes on. */
        RESUME,
        /** The child ends. */
        STOP,
        /** The child ends, and its parent fails with the child's failure. */
        ESCALATE
    }

    private final Function<? super Throwable, Directive> decider;
    private final String name;
    private final int maxRestarts;
    private final Duration window;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final double randomFactor;
    private final boolean retry;

    private SupervisorStrategy(Function<? super Throwable, Directive> decider, String name, int maxRestarts,
            Duration window, Duration minBackoff, Duration maxBackoff, double randomFactor, boolean retry) {
        this.decider = decider;
        this.name = name;
        this.maxRestarts = maxRestarts;
        this.window = window;
        this.minBackoff = minBackoff;
        this.maxBackoff = maxBackoff;
        this.randomFactor = randomFactor;
        this.retry = retry;
    }

    private static SupervisorStrategy always(Directive d) {
        return new SupervisorStrategy(t -> t instanceof Exception ? d : Directive.ESCALATE, d.name().toLowerCase()
                + "()", -1, null, null, null, 0, false);
    }

    /**
     * Restarts the child on every {@link Exception}, without limit or delay (add them with {@link #withLimit} and
     * {@link #withBackoff}); escalates an {@link Error}. Pekko's default, as is its one exception: a child whose
     * start fails ({@code onStart()}, or {@code onRestart} of a new instance) is stopped, not restarted, by a restart
     * without a limit or a backoff, which would fail again at once for ever.
     *
     * @return the strategy
     */
    public static SupervisorStrategy restart() {
        return always(Directive.RESTART);
    }

    /**
     * Resumes the child on every {@link Exception}; escalates an {@link Error}.
     *
     * @return the strategy
     */
    public static SupervisorStrategy resume() {
        return always(Directive.RESUME);
    }

    /**
     * Stops the child on every {@link Exception}; escalates an {@link Error}.
     *
     * @return the strategy
     */
    public static SupervisorStrategy stop() {
        return always(Directive.STOP);
    }

    /**
     * Escalates every failure to the parent.
     *
     * @return the strategy
     */
    public static SupervisorStrategy escalate() {
        return always(Directive.ESCALATE);
    }

    /**
     * Decides by the failure, e.g. resume on a bad message, restart on a lost connection:
     * <pre>{@code
     * SupervisorStrategy.deciding(e -> e instanceof IllegalArgumentException ? Directive.RESUME : Directive.RESTART)
     * }</pre>
     * The decider sees every throwable, errors included. One that throws or returns null gives up on the child
     * (it ends, and its failure reaches its finish).
     *
     * @param decider the directive for a failure; runs on the child's processing, so keep it quick
     * @return the strategy
     */
    public static SupervisorStrategy deciding(Function<? super Throwable, Directive> decider) {
        return new SupervisorStrategy(Objects.requireNonNull(decider, "decider"), "deciding(...)", -1, null, null,
                null, 0, false);
    }

    /**
     * At most {@code maxRestarts} restarts within any {@code window}: the failure that would need one more ends
     * the child and reaches its finish, with the restarts it had and their causes. {@code withLimit(0, ...)} never
     * restarts. Time is the runtime's clock.
     *
     * @param maxRestarts the restarts allowed within the window (0 or more)
     * @param window      the window (positive)
     * @return this strategy with the limit
     * @throws IllegalArgumentException if {@code maxRestarts} is negative or {@code window} not positive
     */
    public SupervisorStrategy withLimit(int maxRestarts, Duration window) {
        Objects.requireNonNull(window, "window");
        if (maxRestarts < 0) {
            throw new IllegalArgumentException("maxRestarts must be 0 or more, got " + maxRestarts);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the restart window must be positive, got " + window);
        }
        return new SupervisorStrategy(decider, name, maxRestarts, window, minBackoff, maxBackoff, randomFactor, retry);
    }

    /**
     * Restarts after an exponential backoff, as Pekko's {@code BackoffSupervisor}: the n-th restart in a row waits
     * {@code min(max, min * 2^(n-1))}, lengthened by a random fraction of up to {@code randomFactor} of it. The
     * row starts over once a restart comes more than {@code max} after the one before. While it waits, the child
     * processes nothing: its messages queue, and go to the new instance in order.
     *
     * @param min          the first delay (positive)
     * @param max          the longest delay (at least {@code min})
     * @param randomFactor the added random fraction, 0 (none) to 1
     * @return this strategy with the backoff
     * @throws IllegalArgumentException if a bound is out of range
     */
    public SupervisorStrategy withBackoff(Duration min, Duration max, double randomFactor) {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("the backoff needs 0 < min <= max, got min " + min + ", max " + max);
        }
        if (!(randomFactor >= 0 && randomFactor <= 1)) {
            throw new IllegalArgumentException("the random factor must be between 0 and 1, got " + randomFactor);
        }
        return new SupervisorStrategy(decider, name, maxRestarts, window, min, max, randomFactor, retry);
    }

    /**
     * On a restart or a resume, the message that failed is processed once more (by the new instance first, on a
     * restart) instead of dropped; if it fails again it is dropped as a {@link DeadLetter.Reason#FAILED_PROCESSING}
     * dead letter, and the strategy decides again.
     *
     * @return this strategy, retrying
     */
    public SupervisorStrategy retryingFailedMessage() {
        return new SupervisorStrategy(decider, name, maxRestarts, window, minBackoff, maxBackoff, randomFactor, true);
    }

    /** The directive for {@code failure}; may throw or return null (a decider's fault). */
    Directive decide(Throwable failure) {
        return decider.apply(failure);
    }

    /** The restarts allowed within {@link #window()}, or -1: no limit. */
    int maxRestarts() {
        return maxRestarts;
    }

    Duration window() {
        return window;
    }

    boolean retries() {
        return retry;
    }

    boolean backsOff() {
        return minBackoff != null;
    }

    Duration maxBackoff() {
        return maxBackoff;
    }

    /** The delay before restart {@code n} of a row (0 for the first), in nanoseconds; {@code random} in [0, 1). */
    long backoffNanos(int n, double random) {
        long min = ActorTimers.nanos(minBackoff);               // a century and more: saturated, as a timer's
        long max = ActorTimers.nanos(maxBackoff);
        long d = n >= 62 || min > (max >> Math.min(n, 62)) ? max : Math.min(max, min << n);
        long extra = (long) (d * randomFactor * random);
        return d > Long.MAX_VALUE - extra ? Long.MAX_VALUE : d + extra;
    }

    /**
     * {@code restart().withLimit(5, PT1M).withBackoff(PT0.1S, PT10S, 0.2)}: how it was made.
     */
    @Override
    public String toString() {
        return name + (maxRestarts >= 0 ? ".withLimit(" + maxRestarts + ", " + window + ")" : "")
                + (minBackoff != null ? ".withBackoff(" + minBackoff + ", " + maxBackoff + ", " + randomFactor + ")"
                        : "")
                + (retry ? ".retryingFailedMessage()" : "");
    }
}
