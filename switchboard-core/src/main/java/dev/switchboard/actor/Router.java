package dev.switchboard.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An actor that passes each message on to one of its routees (or to all of them): a <em>pool</em>, whose routees
 * it starts and supervises itself, or a <em>group</em> of references it is given. Its reference is an ordinary
 * {@link ActorRef}: {@code send} to it, or {@code ask} it (the routee that gets the request answers its
 * {@link ReplyTo}).
 *
 * <pre>{@code
 * ActorRef<Job> workers = Router.pool(8, () -> new Worker(db)).roundRobin().start("workers");
 * ActorRef<Quote> shards = Router.group(shardRefs).consistentHashing(Quote::symbol).start();
 * }</pre>
 *
 * <ul>
 *   <li><b>Routing</b>: {@link Builder#roundRobin() round-robin} (the default), {@link Builder#random() random},
 *       {@link Builder#smallestMailbox() smallest mailbox} (the routee with the fewest queued messages; an idle
 *       one wins a tie with a busy one; a routee of another place counts as full),
 *       {@link Builder#consistentHashing consistent hashing}
 *       by a key taken from the message (rendezvous hashing: a message with the same key goes to the same routee
 *       while it lives, and a routee's end moves only its own keys), and {@link Builder#broadcast() broadcast}
 *       (every routee gets every message).</li>
 *   <li><b>A pool</b> starts its routees as its supervised children ({@link ActorCore#startChild}), with
 *       {@link SupervisorStrategy#restart()} unless {@link Builder#supervisedBy} says otherwise: a routee that
 *       fails is restarted behind the same reference and keeps its place. When the pool ends (its
 *       {@code stop()}, {@code stopNow()}), its routees end after the messages already routed to them; when its
 *       own supervisor restarts it, they are stopped at once, as any restarted parent's children are.</li>
 *   <li><b>A group</b> routes to the references it is given (each once), and watches them.</li>
 *   <li>A routee that ends leaves the router; once none is left, the router exits, and messages sent to it from
 *       then on are dead letters.</li>
 *   <li>A routee whose bounded mailbox is full and refuses the message ({@code FAIL}, or {@code WAIT}: the router
 *       runs on a worker, where a sender never waits) is passed over for the next routee that has room; a message
 *       that no routee has room for (with consistent hashing: its key's routee has none) is a
 *       {@link DeadLetter.Reason#MAILBOX_FULL} dead letter of the routee it was meant for, and the router goes on
 *       (an {@code ask} whose message it was fails at once, saying the mailbox was full). A
 *       {@code DROP} mailbox drops the message itself, as a dead letter of its own.</li>
 * </ul>
 *
 * <p>The router is one actor: every message passes through its mailbox and is routed by its processing, one at a
 * time, which costs one hop more than a send to a routee. (Pekko's pool routers route on the sender's thread
 * instead; doing so here gained nothing measurable on the router benchmarks, decision 017.)
 *
 * <p>An {@code ask} through a router is answered by the routee that gets it; the request reaches the routee as a
 * request, so if that routee fails on it, ends before it processes it, or has ended, the asker hears of it at once
 * (a {@link NoReplyException} naming the routee), as if it had asked the routee; a routee of another place gets
 * it as a plain message holding its {@code ReplyTo}, and the asker hears of its end at its timeout. A broadcast
 * router refuses {@code ask} and {@code awaitReply} (every routee
 * would answer). A routee of another place is routed to but not watched. A consistent-hashing key that is null,
 * or a key function that throws, fails the router as an exception of its {@code process} would.
 *
 * @param <M> the type of message the router and its routees accept
 */
public final class Router<M> extends Actor<M> {
    /*
     * Implementation notes. The routees are a list confined to the router's processing. The end of a local
     * routee reaches the router through its control lane (whenTerminated queues a ControlAction), ahead of the
     * messages waiting in its mailbox, so that a backlog is not routed to a routee that has ended; until then a
     * routee seen terminated is skipped. Smallest-mailbox reads each local routee's queue size and status word,
     * racy snapshots (as Pekko's SmallestMailboxRoutingLogic does). Consistent hashing is rendezvous hashing over
     * the routees' ids: for each message the routee with the highest mix(key hash, routee id) wins, so a routee's
     * end moves only the keys it had.
     */

    private enum Kind { ROUND_ROBIN, RANDOM, SMALLEST_MAILBOX, CONSISTENT_HASHING, BROADCAST }

    private final Kind kind;
    private final Function<? super M, ?> key;
    private final int poolSize;
    private final Supplier<? extends ActorCore<M>> factory;
    private final SupervisorStrategy strategy;
    private final List<ActorRef<M>> group;
    /**
     * The routees, an immutable list the router's processing replaces when one leaves (diagnostics read it
     * racily); null until the router has started (a pool's routees exist only then).
     */
    private volatile List<ActorRef<M>> routees;
    /**
     * The request the message being routed came in, or null: set on the cell by the dispatch before it processes
     * one ({@code Dispatch.process}), taken by the processing (which may be a restarted instance's).
     */
    Request routing;
    /** The turn of round-robin routing; confined to the router's processing. */
    private int turn;

    private Router(Builder<M> b) {
        this.kind = b.kind;
        this.key = b.key;
        this.poolSize = b.poolSize;
        this.factory = b.factory;
        this.strategy = b.strategy;
        this.group = b.group;
    }

    /**
     * A pool of {@code size} routees built by {@code factory}, which the router starts as its supervised children.
     *
     * @param size    how many routees (1 or more)
     * @param factory builds a routee, now and on every restart; each call a new instance of one class
     * @param <M>     the type of message
     * @return a builder: choose the routing, then {@code start()}
     * @throws IllegalArgumentException if {@code size} is below 1
     */
    public static <M> Builder<M> pool(int size, Supplier<? extends ActorCore<M>> factory) {
        Objects.requireNonNull(factory, "factory");
        if (size < 1) {
            throw new IllegalArgumentException("a pool needs at least one routee, got " + size);
        }
        return new Builder<>(size, factory, null);
    }

    /**
     * A group routing to {@code routees}, which it watches (it starts none of them).
     *
     * @param routees the references to route to (one or more, no null)
     * @param <M>     the type of message
     * @return a builder: choose the routing, then {@code start()}
     * @throws IllegalArgumentException if {@code routees} is empty
     */
    public static <M> Builder<M> group(List<? extends ActorRef<M>> routees) {
        Objects.requireNonNull(routees, "null list of routees given to Router.group");
        for (int i = 0; i < routees.size(); i++) {
            if (routees.get(i) == null) {
                throw new NullPointerException("null routee at index " + i + " of the list given to Router.group");
            }
        }
        List<ActorRef<M>> copy = List.copyOf(new java.util.LinkedHashSet<>(routees));   // each routee once
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("a group needs at least one routee");
        }
        return new Builder<>(0, null, copy);
    }

    /**
     * How a router routes, and, for a pool, how it supervises its routees. Not thread-safe; each {@link #build()}
     * makes a new router.
     *
     * @param <M> the type of message
     */
    public static final class Builder<M> {
        private final int poolSize;
        private final Supplier<? extends ActorCore<M>> factory;
        private final List<ActorRef<M>> group;
        private Kind kind = Kind.ROUND_ROBIN;
        private Function<? super M, ?> key;
        private SupervisorStrategy strategy = SupervisorStrategy.restart();

        private Builder(int poolSize, Supplier<? extends ActorCore<M>> factory, List<ActorRef<M>> group) {
            this.poolSize = poolSize;
            this.factory = factory;
            this.group = group;
        }

        /**
         * Each message to the next routee in turn (the default).
         *
         * @return this builder
         */
        public Builder<M> roundRobin() {
            return kind(Kind.ROUND_ROBIN, null);
        }

        /**
         * Each message to a routee chosen at random.
         *
         * @return this builder
         */
        public Builder<M> random() {
            return kind(Kind.RANDOM, null);
        }

        /**
         * Each message to the routee with the fewest queued messages.
         *
         * @return this builder
         */
        public Builder<M> smallestMailbox() {
            return kind(Kind.SMALLEST_MAILBOX, null);
        }

        /**
         * Each message to the routee its key hashes to: messages with equal keys ({@code equals}, {@code hashCode})
         * go to the same routee while it lives.
         *
         * @param key the key of a message (not null for any message)
         * @return this builder
         */
        public Builder<M> consistentHashing(Function<? super M, ?> key) {
            return kind(Kind.CONSISTENT_HASHING, Objects.requireNonNull(key, "key"));
        }

        /**
         * Every message to every routee.
         *
         * @return this builder
         */
        public Builder<M> broadcast() {
            return kind(Kind.BROADCAST, null);
        }

        /**
         * How a pool supervises its routees (default {@link SupervisorStrategy#restart()}).
         *
         * @param strategy the routees' strategy
         * @return this builder
         * @throws IllegalStateException for a group, whose routees it did not start
         */
        public Builder<M> supervisedBy(SupervisorStrategy strategy) {
            if (factory == null) {
                throw new IllegalStateException("a group does not supervise the routees it is given");
            }
            this.strategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        private Builder<M> kind(Kind k, Function<? super M, ?> keyOf) {
            this.kind = k;
            this.key = keyOf;
            return this;
        }

        /**
         * The router, not started yet.
         *
         * @return a new router
         */
        public Router<M> build() {
            return new Router<>(this);
        }

        /**
         * Builds the router and starts it in the current finish, as {@link ActorCore#start()}.
         *
         * @return the router's reference
         */
        public ActorRef<M> start() {
            return build().start();
        }

        /**
         * Builds the router and starts it with a name, as {@link ActorCore#start(String)}.
         *
         * @param name the router's name
         * @return the router's reference
         */
        public ActorRef<M> start(String name) {
            return build().start(name);
        }
    }

    @Override
    protected void onStart() {
        List<ActorRef<M>> all = new ArrayList<>();
        if (group != null) {
            all.addAll(group);
        }
        for (int i = 0; i < poolSize; i++) {
            all.add(startChild(factory, strategy));
        }
        routees = List.copyOf(all);
        ActorCore<M> router = cell();
        for (ActorRef<M> r : all) {
            if (r instanceof LocalRef<M>) {                // a routee of another place cannot be watched yet
                r.whenTerminated().thenRun(() -> AwaitedReplies.control(router, new ControlAction() {
                    @Override
                    public void run() {
                        routeeEnded(r);
                    }
                }));
            }
        }
    }

    /** A routee has ended (the router's processing, ahead of its messages): it leaves; the last one ends the router. */
    private void routeeEnded(ActorRef<M> routee) {
        if (ActorHosting.instanceOf(cell()) != this) {
            return;                                        // a routee of an instance a restart has replaced
        }
        List<ActorRef<M>> left = new ArrayList<>(routees);
        left.remove(routee);
        routees = List.copyOf(left);
        if (left.isEmpty() && !isTerminated()) {
            exit();
        }
    }

    @Override
    boolean stopsChildrenGracefully() {
        return true;
    }

    /** Whether it sends every message to every routee (an ask would be answered by each: it is refused). */
    boolean broadcasts() {
        return kind == Kind.BROADCAST;
    }

    @Override
    protected void process(M message) {
        Router<?> cell = (Router<?>) cell();
        Request request = cell.routing;
        cell.routing = null;
        route(routees, message, request);               // not empty: the last routee's end ends the router
    }

    private void route(List<ActorRef<M>> r, M message, Request request) {
        if (kind == Kind.BROADCAST) {
            for (ActorRef<M> to : r) {
                if (!sent(to, message, null)) {
                    deadLetterAtFull(to, message);
                }
            }
            return;
        }
        ActorRef<M> to = target(r, message);
        if (sent(to, message, request)) {
            return;
        }
        if (kind != Kind.CONSISTENT_HASHING) {               // a key's messages go to its routee or nowhere
            int at = r.indexOf(to);
            for (int i = 1; i < r.size(); i++) {
                ActorRef<M> other = r.get(Math.floorMod(at + i, r.size()));
                if (!ended(other) && sent(other, message, request)) {
                    return;
                }
            }
        }
        deadLetterAtFull(to, request != null ? request : message);
    }

    /**
     * Sends {@code message} to {@code to}, as {@code request} if it came in one and {@code to} is of this JVM; false
     * if its bounded mailbox is full and refuses it (a {@code FAIL} one, or a {@code WAIT} one: the router runs on a
     * worker, and a sender on a worker never waits).
     */
    private static <M> boolean sent(ActorRef<M> to, M message, Request request) {
        try {
            if (request != null && to instanceof LocalRef<M> local) {
                request.replyTo().routedTo = to;
                MailboxAdmission.request(local.actor, request, message, -1);
            } else {
                to.send(message);
            }
            return true;
        } catch (MailboxFullException full) {
            return false;
        }
    }

    /** A message no routee had room for: a dead letter of the routee it was meant for, and the router goes on. */
    private static void deadLetterAtFull(ActorRef<?> to, Object message) {
        if (to instanceof LocalRef<?> local) {
            local.actor.deadLetter(message, DeadLetter.Reason.MAILBOX_FULL);
        }
    }

    /** The routee {@code message} goes to (any kind but broadcast). */
    private ActorRef<M> target(List<ActorRef<M>> r, M message) {
        return switch (kind) {
            case ROUND_ROBIN -> nextInTurn(r);
            case RANDOM -> live(r, r.get(ThreadLocalRandom.current().nextInt(r.size())));
            case SMALLEST_MAILBOX -> smallest(r);
            case CONSISTENT_HASHING -> byKey(r, message);
            case BROADCAST -> throw new AssertionError("a broadcast has no one target");
        };
    }

    /** The next routee in turn that has not ended (its end on the way to the router), or the next one anyway. */
    private ActorRef<M> nextInTurn(List<ActorRef<M>> r) {
        int n = r.size();
        for (int tries = 0; tries < n; tries++) {
            ActorRef<M> to = r.get(Math.floorMod(turn++, n));
            if (!ended(to)) {
                return to;
            }
        }
        return r.get(0);
    }

    /** {@code to}, or, if it has ended (its end on the way to the router), the first routee that has not. */
    private static <M> ActorRef<M> live(List<ActorRef<M>> r, ActorRef<M> to) {
        if (!ended(to)) {
            return to;
        }
        for (ActorRef<M> other : r) {
            if (!ended(other)) {
                return other;
            }
        }
        return to;
    }

    private static boolean ended(ActorRef<?> r) {
        return r instanceof LocalRef<?> local && local.actor.isTerminated();
    }

    private static <M> ActorRef<M> smallest(List<ActorRef<M>> routees) {
        ActorRef<M> best = routees.get(0);
        long least = Long.MAX_VALUE;
        for (ActorRef<M> to : routees) {
            long score = load(to);
            if (score < least) {
                least = score;
                best = to;
                if (score == 0) {
                    break;                                 // idle with nothing queued: none does better
                }
            }
        }
        return best;
    }

    /**
     * Twice the queued messages, plus one while it processes one or holds them (paused, in a restart's backoff):
     * an idle routee wins a tie with a busy one; one that has ended, or is of another place, never wins.
     */
    private static long load(ActorRef<?> r) {
        if (!(r instanceof LocalRef<?> local)) {
            return Long.MAX_VALUE - 1;
        }
        ActorCore<?> a = local.actor;
        int s = a.status();
        if ((s & TERMINATED) != 0) {
            return Long.MAX_VALUE;
        }
        return 2L * a.mailboxSize() + ((s & (SCHEDULED | HELD)) != 0 ? 1 : 0);
    }

    private ActorRef<M> byKey(List<ActorRef<M>> routees, M message) {
        Object k = key.apply(message);
        if (k == null) {
            throw new NullPointerException(this + " got a message whose key is null: "
                    + ActorDiagnostics.brief(message));
        }
        long h = k.hashCode();
        ActorRef<M> best = null;
        long bestScore = 0;
        for (ActorRef<M> r : routees) {
            if (ended(r)) {
                continue;                                  // its keys move now, as they will once it has left
            }
            long score = mix(h * 0x9E3779B97F4A7C15L ^ r.id());
            if (best == null || Long.compareUnsigned(score, bestScore) > 0) {
                best = r;
                bestScore = score;
            }
        }
        return best != null ? best : routees.get(0);
    }

    /** SplitMix64's finalizer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The routees alive now, for diagnostics and tests: a copy, read on the router's processing or racily. */
    List<ActorRef<M>> routees() {
        List<ActorRef<M>> r = routees;
        return r == null ? List.of() : r;
    }

}
