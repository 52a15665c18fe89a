package dev.switchboard.place;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * How a place joins the others over its {@link Transport}: it dials every place above it, again while one is not
 * listening yet, and waits until every other place is connected both ways, or a handshake of its own fails. While
 * it waits it logs, every 5 s (INFO), which places it still waits for, which it has reached, and how long it waits
 * yet.
 *
 * <p>Implementation notes. Every place above is dialed at once, each by a virtual thread of its own, so that a place
 * not there yet holds up no other connection. A dial that fails (nothing listens yet, or the name does not resolve
 * yet) is tried again every 50 ms on that thread, which also resolves the names: the I/O thread must keep its
 * heartbeats. A connection that closes before its handshake's first word (the place is busy with other handshakes,
 * say) is dialed again on the I/O thread, from the {@code Redial} noted before the connect (the close may come
 * before the connect returns), until {@link #connect}'s deadline; once {@link #connect} returns, a closed connection
 * is a lost one.
 */
final class Joining {
    /** How long a place waits before it tries again to reach a place that is not listening yet. */
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How often, by default, a place that waits for the others logs whom it waits for. */
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    /** The transport's logger: what a place says about its connections is found under one name. */
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());

    private final int self;
    private final List<String> names;
    private final TransportSettings settings;
    private final EventLoopGroup group;
    private final IntFunction<ChannelInitializer<SocketChannel>> pipeline;
    private final IntPredicate holdsConnection;
    /** Counted down once for each other place as its connection is established, either way. */
    private final CountDownLatch connected;
    /** Why a handshake of this place's own connections failed first, or an established one was lost, or null. */
    private volatile String refused;
    /**
     * The last handshake of a connection this place accepted that failed: it does not end a join
     * (anyone may connect and fail), but a join that times out says it, as the likely reason a place did not come.
     */
    private volatile String acceptedFailure;
    /** How often a join that waits says whom it waits for ({@link #logProgress}). */
    private volatile Duration progressEvery = PROGRESS_EVERY;
    /** Whether {@link #connect} runs: a connection lost meanwhile fails it. */
    private volatile boolean joining;
    /** Whether {@link #connect} returned, every place connected: from then on, the program runs. */
    private volatile boolean joined;
    /** Attempts to reach a place that was not listening yet (for tests). */
    private final AtomicInteger failedConnects = new AtomicInteger();

    /** How to dial a place again whose connection closed before its handshake began, until connect's deadline. */
    private record Redial(Bootstrap bootstrap, SocketAddress at, long deadline) {
    }

    private final ConcurrentHashMap<Integer, Redial> redials = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, String> lastBeforeAWord = new ConcurrentHashMap<>();
    /** The places a dialer gave up on at the deadline, and the last error of each. */
    private final ConcurrentHashMap<Integer, Throwable> unreachable = new ConcurrentHashMap<>();

    /**
     * @param self            this place's index
     * @param names           every place's name, by index
     * @param settings        the transport's settings (the outbound buffer's marks)
     * @param group           the transport's I/O thread
     * @param pipeline        the handlers of a connection to a place, by index
     * @param holdsConnection whether the transport holds a connection to a place (established, not lost)
     */
    Joining(int self, List<String> names, TransportSettings settings, EventLoopGroup group,
            IntFunction<ChannelInitializer<SocketChannel>> pipeline, IntPredicate holdsConnection) {
        this.self = self;
        this.names = names;
        this.settings = settings;
        this.group = group;
        this.pipeline = pipeline;
        this.holdsConnection = holdsConnection;
        this.connected = new CountDownLatch(names.size() - 1);
    }

    /**
     * Connects to every place above this one ({@code addresses}, by index) and waits until every other place is
     * connected, both ways, within {@code timeout}. Places may start in any order: a place that is not listening
     * yet is tried again every 50 ms until then.
     *
     * @throws PlaceConnectionException if a place refuses, cannot be reached or does not connect in time
     */
    void connect(List<InetSocketAddress> addresses, Duration timeout) throws InterruptedException {
        joining = true;
        List<Thread> dialers = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            // every place above is dialed at once, each on a thread of its own: one that is not there yet holds up
            // no other place's connection
            for (int place = self + 1; place < addresses.size(); place++) {
                int p = place;
                dialers.add(Thread.ofVirtual().name("place-" + names.get(self) + "-dials-" + names.get(p))
                        .start(() -> dial(p, addresses.get(p), timeout, deadline)));
            }
            boolean all = false;
            long nextProgress = System.nanoTime() + progressEvery.toNanos();
            for (long left = deadline - System.nanoTime(); !all && left > 0 && refused == null
                    && unreachable.isEmpty(); left = deadline - System.nanoTime()) {
                all = connected.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)), TimeUnit.NANOSECONDS);
                if (!all && System.nanoTime() - nextProgress >= 0) {
                    nextProgress = System.nanoTime() + progressEvery.toNanos();
                    logProgress(deadline, timeout);
                }
            }
            if (!all && refused != null) {
                throw new PlaceConnectionException("place " + names.get(self) + " cannot join: " + refused);
            }
            if (!all) {
                for (Thread d : dialers) {                // each gives up by the deadline: what it found is said
                    d.join(TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime())) + 1_000);
                }
                if (!unreachable.isEmpty()) {
                    throw unreachable(addresses, timeout);
                }
                StringBuilder missing = new StringBuilder();
                for (int p = 0; p < names.size(); p++) {
                    if (p != self && !holdsConnection.test(p)) {
                        missing.append(missing.isEmpty() ? "" : ", ").append(names.get(p));
                    }
                }
                throw new PlaceConnectionException("place " + names.get(self) + " is not connected to " + missing
                        + " after " + timeout.toMillis() + " ms, the bootstrap timeout" + acceptedFailureSaid());
            }
            joined = true;
        } finally {
            joining = false;
            dialers.forEach(Thread::interrupt);
            redials.clear();                              // from now on a closed connection is a lost one
        }
    }

    /**
     * Dials {@code place} at {@code at} until its connection is made, again every 50 ms while it is not listening
     * (or its name does not resolve) yet; at the deadline it gives up, and notes why in {@link #unreachable}.
     */
    private void dial(int place, InetSocketAddress at, Duration timeout, long deadline) {
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(settings.lowWater(), settings.highWater()))
                .handler(pipeline.apply(place));
        try {
            // names are resolved here, not on the I/O thread, which must keep its heartbeats
            for (Future<?> future = connectOnce(b, place, at, deadline); !future.isSuccess();
                    future = connectOnce(b, place, at, deadline)) {
                if (System.nanoTime() - deadline + RETRY_NANOS > 0) {
                    unreachable.put(place, future.cause());
                    return;
                }
                if (refused != null) {
                    return;                               // the join failed already
                }
                failedConnects.incrementAndGet();
                TimeUnit.NANOSECONDS.sleep(RETRY_NANOS);  // a retry interval, not a wait for another thread
            }
        } catch (InterruptedException e) {
            // the join ended
        }
    }

    /** Says, at INFO, which places this one still waits for, which it has reached, and how long it waits yet. */
    private void logProgress(long deadline, Duration timeout) {
        List<String> waiting = new ArrayList<>();
        List<String> reached = new ArrayList<>();
        for (int p = 0; p < names.size(); p++) {
            if (p != self) {
                (holdsConnection.test(p) ? reached : waiting).add(names.get(p));
            }
        }
        long left = TimeUnit.NANOSECONDS.toSeconds(Math.max(0, deadline - System.nanoTime()));
        LOG.log(System.Logger.Level.INFO, () -> "place " + names.get(self) + " is joining the places: still waiting"
                + " for " + String.join(", ", waiting) + "; connected to " + (reached.isEmpty() ? "none yet"
                : String.join(", ", reached)) + "; " + left + " s left before the bootstrap timeout ("
                + timeout.toMillis() + " ms)");
    }

    /** Why the join failed when places could not be reached until the deadline: each, where, and the last error. */
    private PlaceConnectionException unreachable(List<InetSocketAddress> addresses, Duration timeout) {
        StringBuilder which = new StringBuilder();
        Throwable first = null;
        for (var e : new java.util.TreeMap<>(unreachable).entrySet()) {
            which.append(first == null ? "" : ", nor ").append("place ").append(names.get(e.getKey())).append(" at ")
                    .append(addresses.get(e.getKey())).append(first == null ? "" : " (" + e.getValue() + ")");
            first = first == null ? e.getValue() : first;
        }
        return new PlaceConnectionException("place " + names.get(self) + " cannot reach " + which + " within "
                + timeout.toMillis() + " ms (the bootstrap timeout): " + first + acceptedFailureSaid(), first);
    }

    /**
     * One attempt to connect to {@code to}, its name resolved on this thread (again, if it did not resolve). Where to
     * dial again if the connection closes before a word is noted before it is made: the close may come first.
     */
    private Future<?> connectOnce(Bootstrap b, int place, InetSocketAddress to, long deadline)
            throws InterruptedException {
        InetSocketAddress resolved = to.isUnresolved() ? new InetSocketAddress(to.getHostString(), to.getPort()) : to;
        if (resolved.isUnresolved()) {
            return b.config().group().next().newFailedFuture(new UnknownHostException(to.getHostString()
                    + " does not resolve (yet)"));
        }
        redials.put(place, new Redial(b, resolved, deadline));
        return b.connect(resolved).await();
    }

    /** Another place's connection is established (either way). */
    void placeConnected() {
        connected.countDown();
    }

    /**
     * This place's connection to {@code place} closed before a handshake frame came back (the place is busy with
     * other handshakes, say): it is dialed again in a moment, until {@link #connect}'s deadline, and then fails.
     */
    void redial(int place) {
        Redial r = redials.get(place);
        if (r == null || System.nanoTime() - r.deadline() > 0) {
            String last = lastBeforeAWord.get(place);
            handshakeFailed(place, "place " + names.get(place) + " closed the connection before its handshake"
                    + " began, until the deadline" + (last == null ? "" : " (the last time: " + last + ")"));
            return;
        }
        failedConnects.incrementAndGet();
        group.schedule(() -> r.bootstrap().connect(r.at()).addListener(f -> {
            if (!f.isSuccess()) {
                redial(place);
            }
        }), RETRY_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Why the last connection to {@code place} ended before a word (a reset, say), for {@link #redial}'s end. */
    void noteBeforeAWord(int place, String why) {
        if (lastBeforeAWord.put(place, why) == null) {
            LOG.log(System.Logger.Level.INFO, () -> "place " + names.get(self) + ": the connection to place "
                    + names.get(place) + " ended before its handshake began (" + why + "); dialing again");
        }
    }

    /**
     * An established connection to {@code place} was lost: while this place joins the others, it cannot join, and
     * {@link #connect} fails at once saying why, rather than wait for its deadline.
     */
    void lost(int place, String why) {
        if (joining && refused == null) {
            refused = "place " + names.get(place) + " was lost while the places joined: " + why;
        }
    }

    /** The handshake of this place's connection to {@code place} failed: {@link #connect} says why. */
    void handshakeFailed(int place, String why) {
        if (refused == null) {
            refused = why;
        }
    }

    /** Whether this place is joining the others now (in {@link #connect}). */
    boolean isJoining() {
        return joining;
    }

    /** Whether this place has joined the others ({@link #connect} returned): the program runs. */
    boolean hasJoined() {
        return joined;
    }

    /** The handshake of a connection this place accepted failed: said if the join times out. */
    void acceptedHandshakeFailed(String why) {
        acceptedFailure = why;
    }

    /** What a join that timed out adds to its message: the last failed handshake of a connection it accepted. */
    private String acceptedFailureSaid() {
        String why = acceptedFailure;
        return why == null ? "" : "; " + why;
    }

    /** For tests: how often a join that waits logs whom it waits for (5 s otherwise). */
    void progressEvery(Duration every) {
        progressEvery = every;
    }

    /** For tests: how often {@link #connect} found a place not listening yet and tried again. */
    int failedConnects() {
        return failedConnects.get();
    }
}
