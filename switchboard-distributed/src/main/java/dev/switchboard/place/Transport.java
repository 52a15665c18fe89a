package dev.switchboard.place;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The connections of one place to the others: one TCP connection per pair of places (Netty, NIO), length-prefixed
 * frames, flushes coalesced, each message serialized by a {@link MessageCodec} on the sender's thread.
 *
 * <p>Implementation notes. Place {@code i} connects to every place with a higher index and accepts the connections of
 * those with a lower one, so each pair has exactly one connection. Every connection starts with the {@link Handshake}
 * ({@link HandshakeHandler}), in a small fixed format of its own: both sides prove they belong to the program ({@link
 * Authentication}), and the accepting place checks the program, its build, the connecting place's index (below its own,
 * not connected yet); nothing the general codec reads is decoded before it ends. Then a frame is a 4-byte length and
 * the codec's bytes, at most {@link DecodingLimits#maxFrameBytes()}, decoded within the codec's {@link DecodingLimits}.
 * Messages from one sending thread to one place arrive in the order they were sent (one connection, writes queued in
 * order). Backpressure: each connection's outbound buffer has a high-water mark; a sender that finds it full waits
 * until the buffer drains below the low mark, at most {@link TransportSettings#overload()}, and then fails with a
 * {@link PlaceConnectionException} naming the place, so a place that cannot keep up slows its senders or fails them,
 * and never fills the heap. A connection that closes is lost: sends to that place fail naming it, and the
 * {@link Receiver} hears of it. How a place dials the others and waits for every connection is {@link Joining}'s; the
 * probes of a place's liveness are {@link Pings}'; a connection's frames, once its handshake is done, are
 * {@link Connection}'s.
 */
final class Transport implements AutoCloseable {
    static {
        NettyLogging.configure();                     // before Netty's first class logs
    }

    /**
     * Where the messages of other places go, on the transport's I/O thread: it must not block (hand the message
     * on, as to an actor's mailbox). A {@link #send} from it never waits for a full buffer (the I/O thread is the
     * one that would drain it): it fails at once. An exception thrown from it closes that connection.
     */
    interface Receiver {
        /** A message from place {@code from}. */
        void received(int from, Object message);

        /** The connection to place {@code place} was lost (closed, refused, or a frame that was not a message). */
        default void lost(int place, String why) {
        }

        /** The actor of this place with the global id {@code id}, as reports name it ("actor sink@..."). */
        default String recipient(long id) {
            return "actor " + GlobalId.of(id);
        }

        /** Whether this place's part has ended (it was told to shut down): a loss then fails no join. */
        default boolean ending() {
            return false;
        }
    }

    /** What a place that closes its transport tells the others. */
    static final String SHUTTING_DOWN = "shutting down";

    /** Why a connection ends when the place at the other end went away without a word. */
    static final String CLOSED_WITHOUT_A_WORD = "its connection closed without a word (the place was killed or"
            + " crashed, or the link was cut)";

    private final int self;
    private final String program;
    private final List<String> names;
    private final MessageCodec codec;
    private final Receiver receiver;
    private final TransportSettings settings;
    private final Authentication authentication;
    private final byte[] build;
    private final EventLoopGroup group;
    /** Which connected places are alive; used on the I/O thread only. */
    private final FailureDetector detector;
    private final AtomicReferenceArray<Channel> channels;
    private final String[] lostWhy;
    private final Joining joining;
    private final Pings pings = new Pings(this);
    private volatile Channel server;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Tells the others why, if this JVM ends while the transport is open. */
    private final JvmExitNotice exitNotice;
    /** Accepted connections in their handshake. */
    private final AtomicInteger pendingHandshakes = new AtomicInteger();

    /**
     * @param self    this place's index
     * @param program the program's id: places of another program are refused
     * @param names   every place's name, by index (for messages)
     * @param authentication how places prove they belong to the program
     */
    Transport(int self, String program, List<String> names, MessageCodec codec, Receiver receiver,
              TransportSettings settings, Authentication authentication) {
        this.self = self;
        this.authentication = Objects.requireNonNull(authentication, "authentication");
        this.build = codec.buildIdentity();
        this.program = Objects.requireNonNull(program, "program");
        this.names = List.copyOf(names);
        this.codec = codec;
        this.receiver = receiver;
        this.settings = settings;
        this.channels = new AtomicReferenceArray<>(names.size());
        this.lostWhy = new String[names.size()];
        this.group = new MultiThreadIoEventLoopGroup(1,
                new DefaultThreadFactory("place-" + names.get(self) + "-io", true), NioIoHandler.newFactory());
        this.joining = new Joining(self, this.names, settings, group, this::pipeline, p -> channels.get(p) != null);
        this.detector = new FailureDetector(names.size(), settings.heartbeatInterval(), settings.failureTimeout());
        long every = detector.intervalNanos();
        group.scheduleAtFixedRate(this::heartbeat, every, every, TimeUnit.NANOSECONDS);
        this.exitNotice = new JvmExitNotice(this, names.get(self));
    }

    /**
     * Every heartbeat interval, on the I/O thread: a heartbeat on every connection, then the look for places that
     * have sent nothing for the failure timeout, each of which is declared failed: its connection is closed, and the
     * {@link Receiver} hears why.
     */
    private void heartbeat() {
        for (int p = 0; p < channels.length(); p++) {
            Channel ch = channels.get(p);
            if (ch != null && ch.isActive()) {
                ch.writeAndFlush(codec.frame(HEARTBEAT, () -> "a heartbeat", codec.limits().maxFrameBytes(),
                        ch.alloc()), ch.voidPromise());
            }
        }
        String[] failed = detector.tick(System.nanoTime());
        if (failed != null) {
            for (int p = 0; p < failed.length; p++) {
                Channel ch = channels.get(p);
                if (failed[p] != null && ch != null) {
                    Connection c = ch.pipeline().get(Connection.class);
                    if (c != null) {
                        c.declareFailed(ch.pipeline().context(c), failed[p]);
                    }
                }
            }
        }
    }

    private static final Frames.Heartbeat HEARTBEAT = new Frames.Heartbeat();

    /**
     * Listens at {@code at} (port 0: any free port) for the places below this one; returns where it listens.
     *
     * @throws PlaceConnectionException if it cannot listen there (the port in use, an address not of this host)
     */
    InetSocketAddress bind(InetSocketAddress at) throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(settings.lowWater(), settings.highWater()))
                .childHandler(pipeline(-1));
        try {
            server = b.bind(at).sync().channel();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {                          // Netty rethrows the BindException unchecked
            throw PlaceConnectionException.cannotListen(here(), at, e);
        }
        return (InetSocketAddress) server.localAddress();
    }

    /**
     * Joins the other places ({@link Joining#connect}): connects to every place above this one ({@code addresses},
     * by index) and waits until every other place is connected, both ways, within {@code timeout}. A join that
     * fails closes this transport, telling the places it reached why ({@link #GAVE_UP_JOINING}).
     *
     * @throws PlaceConnectionException if a place refuses, cannot be reached or does not connect in time
     */
    void connect(List<InetSocketAddress> addresses, Duration timeout) throws InterruptedException {
        try {
            joining.connect(addresses, timeout);
        } catch (PlaceConnectionException e) {
            close(GAVE_UP_JOINING + firstLine(e.getMessage()));  // the places it reached hear why it leaves
            throw e;
        }
    }

    /** What a place whose join failed tells the places it reached, before why. */
    static final String GAVE_UP_JOINING = "it gave up joining the places: ";

    private ChannelInitializer<SocketChannel> pipeline(int expected) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                HandshakeHandler.install(ch.pipeline(), Transport.this, expected);
            }
        };
    }

    // ------------------------------------------------------------------- what the handshake reads and tells

    int self() {
        return self;
    }

    String name(int place) {
        return names.get(place);
    }

    /** How many places the program has. */
    int places() {
        return names.size();
    }

    /** "place p1", for logs. */
    String here() {
        return "place " + names.get(self);
    }

    String program() {
        return program;
    }

    /** The build identity of this place's program: its message classes ({@link MessageCodec#buildIdentity()}). */
    byte[] build() {
        return build;
    }

    Authentication authentication() {
        return authentication;
    }

    TransportSettings settings() {
        return settings;
    }

    MessageCodec codec() {
        return codec;
    }

    /** Counts an accepted connection into its handshake; false if there are too many already. */
    boolean admitPending() {
        if (pendingHandshakes.incrementAndGet() > maxPendingHandshakes()) {
            pendingHandshakes.decrementAndGet();
            return false;
        }
        return true;
    }

    void releasePending() {
        pendingHandshakes.decrementAndGet();
    }

    /** The most accepted connections in their handshake at once: the setting, and at least two per place. */
    int maxPendingHandshakes() {
        return Math.max(settings.maxPendingHandshakes(), 2 * names.size());
    }

    /** For tests: accepted connections in their handshake now. */
    int pendingHandshakes() {
        return pendingHandshakes.get();
    }

    /** The handshake of {@code ch} with {@code place} succeeded: it is that place's connection, unless one is. */
    boolean established(Channel ch, int place) {
        if (channels.compareAndSet(place, null, ch)) {
            detector.connected(place);
            joining.placeConnected();
            return true;
        }
        return false;
    }

    /** How this place joins the others: its dialing, and its wait for every connection. */
    Joining joining() {
        return joining;
    }

    /** The handler of a connection to {@code place} once its handshake succeeded. */
    Connection connection(int place) {
        return new Connection(this, place);
    }

    // ------------------------------------------------------------------- what a connection reads and tells

    /** Where the messages of other places go. */
    Receiver receiver() {
        return receiver;
    }

    /** The pings this place sent, which a connection's Pong answers. */
    Pings pings() {
        return pings;
    }

    /** A frame came from {@code place}, on the I/O thread: the failure detector hears it. */
    void heard(int place, Object frame) {
        detector.heard(place, frame);
    }

    /**
     * The connection {@code ch} to {@code place} is lost for {@code why}, on the I/O thread; nothing if it is not
     * that place's connection (lost already). Senders to the place then fail saying why, and the failure detector,
     * the pings, the join (unless this place ends) and the {@link Receiver} hear of it.
     */
    void lost(int place, Channel ch, String why) {
        if (channels.get(place) != ch) {
            return;                                   // lost already
        }
        synchronized (lostWhy) {                      // before the channel goes: a sender then reads why
            if (lostWhy[place] == null) {
                lostWhy[place] = why;
            }
        }
        if (channels.compareAndSet(place, ch, null)) {
            detector.disconnected(place);
            pings.placeLost(place, why);
            if (!closed.get() && !receiver.ending()) {
                joining.lost(place, why);                 // not an end this place was told of, or made
            }
            receiver.lost(place, why);
        }
    }

    /**
     * Sends {@code message} to place {@code place}, serialized on this thread.
     *
     * @throws IllegalArgumentException if its class (or a class it holds) is not registered
     * @throws PlaceConnectionException if the place is not connected, its connection was lost, or its buffer
     *         stayed full for {@link TransportSettings#overload()}
     */
    void send(int place, Object message) {
        send(place, message, false, null);
    }

    /**
     * {@link #send(int, Object)} of a message for {@code recipient} ("actor sink@7"), whom its errors name.
     */
    void send(int place, Object message, Supplier<String> recipient) {
        send(place, message, false, recipient);
    }

    /**
     * Sends a frame of the places' own protocol (a termination wave, a shutdown) to place {@code place}: written even
     * when the connection's outbound buffer is above its high-water mark, so that the transport's I/O thread can
     * pass it on and program traffic filling a buffer cannot hold it up. Such frames are few (one wave at a time)
     * and small.
     *
     * @throws PlaceConnectionException if the place is not connected or its connection was lost
     */
    void sendControl(int place, Object message) {
        send(place, message, true, null);
    }

    /** "place p0 (from place p1)": where a message goes, and from where, for errors. */
    String destination(int place) {
        return "place " + names.get(place) + " (from place " + names.get(self) + ")";
    }

    private void send(int place, Object message, boolean control, Supplier<String> recipient) {
        if (place == self || place < 0 || place >= names.size()) {
            throw new IllegalArgumentException("place " + names.get(self) + " cannot send to place index " + place
                    + " (places: 0 to " + (names.size() - 1) + ", itself excluded)");
        }
        Supplier<String> to = recipient == null ? () -> destination(place)
                : () -> recipient.get() + " at " + destination(place);
        Channel ch = channels.get(place);
        if (ch == null || !ch.isActive()) {
            codec.encode(message, to.get());        // an unregistered class, or one over a limit, says so first
            throw notConnected(place);
        }
        ByteBuf frame = codec.frame(message, to, codec.limits().maxFrameBytes(), ch.alloc());
        if (!control && !ch.isWritable()) {
            try {
                if (ch.eventLoop().inEventLoop()) {
                    throw new PlaceConnectionException("place " + names.get(place) + " is not taking messages fast"
                            + " enough, and a send from the transport's own I/O thread cannot wait for it; the"
                            + " message was not sent");
                }
                awaitWritable(ch, place);
            } catch (RuntimeException e) {
                frame.release();
                throw e;
            }
        }
        ch.writeAndFlush(frame, ch.voidPromise());
    }

    private PlaceConnectionException notConnected(int place) {
        String why;
        synchronized (lostWhy) {
            why = lostWhy[place];
        }
        if (why == null && channels.get(place) != null) {
            why = "the connection closed";              // closed, and its close not handled yet
        }
        return new PlaceConnectionException("cannot send to place " + names.get(place) + ": "
                + (why == null ? "it is not connected" : "its connection was lost (" + why + ")"));
    }

    private void awaitWritable(Channel ch, int place) {
        long deadline = System.nanoTime() + settings.overload().toNanos();
        Connection c = ch.pipeline().get(Connection.class);
        if (c == null) {                                // closed meanwhile: its pipeline is emptied
            throw notConnected(place);
        }
        synchronized (c) {
            while (!ch.isWritable() && ch.isActive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new PlaceConnectionException("place " + names.get(place) + " took no messages for "
                            + settings.overload().toMillis() + " ms: its connection's outbound buffer is full ("
                            + settings.highWater() + " bytes); the message was not sent");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(c, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PlaceConnectionException("interrupted while waiting for place " + names.get(place)
                            + " to take messages; the message was not sent", e);
                }
            }
        }
        if (!ch.isActive()) {
            throw notConnected(place);
        }
    }

    /**
     * Probes {@code place}: sends a ping, which its transport answers, and returns the round trip ({@link Pings}).
     *
     * @throws PlaceConnectionException if the place is not connected or does not answer within {@code timeout}
     */
    Duration ping(int place, Duration timeout) throws InterruptedException {
        return pings.ping(place, timeout);
    }

    /** Runs {@code task} on the transport's I/O thread after {@code delay}. */
    void schedule(Runnable task, Duration delay) {
        group.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code task} on the transport's I/O thread (the one that decodes every frame). */
    void onIoThread(Runnable task) {
        group.execute(task);
    }

    /** For tests: how often {@link #connect} found a place not listening yet and tried again. */
    int failedConnects() {
        return joining.failedConnects();
    }

    /** For tests: pings sent and not answered or failed yet. */
    int pendingPings() {
        return pings.pending();
    }

    /** Whether the connection to {@code place} is up. */
    boolean isConnected(int place) {
        Channel ch = channels.get(place);
        return ch != null && ch.isActive();
    }

    /**
     * For tests: stops (or resumes) reading what {@code place} sends, so that its sender's buffer fills; in effect
     * when it returns. Set from another thread, Netty clears the pending read later, on the I/O thread, so a frame
     * sent right after could still be read (a ping answered that a test meant to leave unanswered); set on the I/O
     * thread, it takes effect at once.
     */
    void readFrom(int place, boolean read) {
        Channel ch = channels.get(place);
        if (ch == null) {
            return;
        }
        if (ch.eventLoop().inEventLoop()) {
            ch.config().setAutoRead(read);
        } else {
            ch.eventLoop().submit(() -> ch.config().setAutoRead(read)).syncUninterruptibly();
        }
    }

    /** For tests: closes the connection to {@code place} as a cut cable would. */
    void cut(int place) throws InterruptedException {
        Channel ch = channels.get(place);
        if (ch != null) {
            ch.close().sync();
        }
    }

    /**
     * Leaves: tells every connected place that this one is shutting down (so that it is told apart from one that
     * failed), then closes every connection and stops the I/O thread.
     */
    @Override
    public void close() {
        close(SHUTTING_DOWN);
    }

    /** Leaves, telling every connected place {@code reason} ({@link #close()}; {@link JvmExitNotice}). */
    void close(String reason) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        exitNotice.cancel();
        Channel s = server;
        if (s != null) {
            s.close().syncUninterruptibly();
        }
        for (int p = 0; p < channels.length(); p++) {
            Channel ch = channels.get(p);
            if (ch != null && ch.isActive()) {
                ch.writeAndFlush(codec.frame(new Frames.Closing(reason), () -> "a place",
                        codec.limits().maxFrameBytes(), ch.alloc()), ch.voidPromise());
            }
        }
        for (int p = 0; p < channels.length(); p++) {
            Channel ch = channels.get(p);
            if (ch != null) {
                ch.close().syncUninterruptibly();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The first line of {@code text}, at most 300 characters: what a log line and a Closing frame say. */
    static String firstLine(String text) {
        String line = String.valueOf(text).lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
