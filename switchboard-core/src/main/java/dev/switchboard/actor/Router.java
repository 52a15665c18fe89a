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
 *       {@link Builder#smallestMailbox() smallest mailbox} (the routee with the fewest queued messages, ties to
 *       the first; a routee of another place counts as full), {@link Builder#consistentHashing consistent hashing}
 *       by a key taken from the message (rendezvous hashing: a message with the same key goes to the same routee
 *       while it lives, and a routee's end moves only its own keys), and {@link Builder#broadcast() broadcast}
 *       (every routee gets every message).</li>
 *   <li><b>A pool</b> starts its routees as its supervised children ({@link ActorCore#startChild}), with
 *       {@link SupervisorStrategy#restart()} unless {@link Builder#supervisedBy} says otherwise: a routee that
 *       fails is restarted behind the same reference and keeps its place. When the pool ends (its
 *       {@code stop()}, {@code stopNow()}), its routees end after the messages already routed to them.</li>
 *   <li><b>A group</b> routes to the references it is given, and watches them.</li>
 *   <li>A routee that ends leaves the router; once none is left, the router exits, and messages sent to it from
 *       then on are dead letters.</li>
 * </ul>
 *
 * <p>The router is one actor: every message passes through it, one at a time. That costs one more hop than
 * sending to a routee directly, and the router's turn is the bound on its throughput (a few million messages a
 * second); routees that take longer than that per message gain from it.
 *
 * @param <M> the type of message the router and its routees accept
 */
public final class Router<M> extends Actor<M> {
    /*
     * Implementation notes. The routees are a list confined to the router's processing. The router watches each
     * routee with a mapping to RouteeGone, an internal record that reaches process(M) as an M by erasure: only the
     * runtime sends it, so the cast is never seen by a user. Smallest-mailbox reads each local routee's queue
     * size, a racy snapshot (as Pekko's SmallestMailboxRoutingLogic does). Consistent hashing is rendezvous
     * hashing over the routees' ids: for each message the routee with the highest mix(key hash, routee id) wins.
     */

    private record RouteeGone(Terminated end) {
    }

    private enum Kind { ROUND_ROBIN, RANDOM, SMALLEST_MAILBOX, CONSISTENT_HASHING, BROADCAST }

    private final Kind kind;
    private final Function<? super M, ?> key;
    private final int poolSize;
    private final Supplier<? extends ActorCore<M>> factory;
    private final SupervisorStrategy strategy;
    private final List<ActorRef<M>> routees = new ArrayList<>();
    private int next;

    private Router(Builder<M> b) {
        this.kind = b.kind;
        this.key = b.key;
        this.poolSize = b.poolSize;
        this.factory = b.factory;
        this.strategy = b.strategy;
        if (b.group != null) {
            routees.addAll(b.group);
        }
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
        List<ActorRef<M>> copy = List.copyOf(routees);
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
    @SuppressWarnings("unchecked")
    protected void onStart() {
        for (int i = 0; i < poolSize; i++) {
            routees.add(startChild(factory, strategy));
        }
        for (ActorRef<M> r : routees) {
            if (r instanceof LocalRef<M>) {                // a routee of another place cannot be watched yet
                watch(r, end -> (M) (Object) new RouteeGone(end));
            }
        }
    }

    @Override
    boolean stopsChildrenGracefully() {
        return true;
    }

    @Override
    protected void process(M message) {
        if ((Object) message instanceof RouteeGone gone) {
            routees.remove(gone.end().actor());
            if (routees.isEmpty()) {
                exit();
            }
            return;
        }
        if (routees.isEmpty()) {                       // a group whose routees have all ended
            exit();
            return;
        }
        switch (kind) {
            case ROUND_ROBIN -> {
                if (next >= routees.size()) {
                    next = 0;
                }
                routees.get(next++).send(message);
            }
            case RANDOM -> routees.get(ThreadLocalRandom.current().nextInt(routees.size())).send(message);
            case SMALLEST_MAILBOX -> smallest().send(message);
            case CONSISTENT_HASHING -> byKey(message).send(message);
            case BROADCAST -> routees.forEach(r -> r.send(message));
        }
    }

    private ActorRef<M> smallest() {
        ActorRef<M> best = routees.get(0);
        long least = Long.MAX_VALUE;
        for (ActorRef<M> r : routees) {
            long score = load(r);
            if (score < least) {
                least = score;
                best = r;
                if (score == 0) {
                    break;                                 // idle with nothing queued: none does better
                }
            }
        }
        return best;
    }

    /** Twice the queued messages, plus one while it processes one: an idle routee wins a tie with a busy one. */
    private static long load(ActorRef<?> r) {
        if (!(r instanceof LocalRef<?> local)) {
            return Long.MAX_VALUE;
        }
        ActorCore<?> a = local.actor;
        return 2L * a.mailboxSize() + ((a.status() & SCHEDULED) != 0 ? 1 : 0);
    }

    private ActorRef<M> byKey(M message) {
        Object k = key.apply(message);
        if (k == null) {
            throw new NullPointerException(this + " got a message whose key is null: " + ActorDiagnostics.brief(message));
        }
        long h = k.hashCode();
        ActorRef<M> best = null;
        long bestScore = 0;
        for (ActorRef<M> r : routees) {
            long score = mix(h * 0x9E3779B97F4A7C15L ^ r.id());
            if (best == null || Long.compareUnsigned(score, bestScore) > 0) {
                best = r;
                bestScore = score;
            }
        }
        return best;
    }

    /** SplitMix64's finalizer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The routees alive now, for diagnostics and tests: a copy, read on the router's processing or racily. */
    List<ActorRef<M>> routees() {
        return List.copyOf(routees);
    }
}
