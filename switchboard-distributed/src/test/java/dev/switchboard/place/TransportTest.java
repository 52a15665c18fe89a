package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transport between places, three places in this JVM on loopback: messages both ways in per-sender order,
 * records and enums and handles' ids intact; an unregistered class refused at the sender; strangers refused at the
 * handshake; a place that stops reading slows then fails its sender, naming it; a cut connection fails later sends
 * naming the place, and the receiver hears of it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransportTest {
    enum Colour { RED, GREEN }

    record Ping(int seq, String from, Colour colour, GlobalId replyTo, long[] payload) {
    }

    record Unlisted(int x) {
    }

    record Holder(Object inside) {
    }

    /** What a place received: (from, message) pairs, and the places it lost with why. */
    static class Inbox implements Transport.Receiver {
        final BlockingQueue<Object[]> received = new LinkedBlockingQueue<>();
        final BlockingQueue<String> lost = new LinkedBlockingQueue<>();

        @Override
        public void received(int from, Object message) {
            received.add(new Object[] {from, message});
        }

        @Override
        public void lost(int place, String why) {
            lost.add(place + ": " + why);
        }

        Object[] next() throws InterruptedException {
            Object[] m = received.poll(20, TimeUnit.SECONDS);
            assertThat(m).as("a message within 20 s").isNotNull();
            return m;
        }
    }

    private static final List<String> NAMES = List.of("p0", "p1", "p2");
    private final List<Transport> open = new ArrayList<>();

    @AfterEach
    void closeAll() {
        open.forEach(Transport::close);
    }

    /** The secret the test's places share. */
    static final Authentication AUTH = Authentication.hmac("a secret of the test's places".getBytes());

    private static MessageCodec codec() {
        return codec(DecodingLimits.DEFAULTS);
    }

    private static MessageCodec codec(DecodingLimits limits) {
        return new MessageCodec(List.of(Ping.class, Colour.class, Holder.class),
                "list it under selectorSystem.messages in test.conf", null, limits);
    }

    /** Three places with these inboxes and settings, connected. */
    private List<Transport> places(List<Inbox> inboxes, TransportSettings settings) throws Exception {
        return places(inboxes, settings, DecodingLimits.DEFAULTS);
    }

    private List<Transport> places(List<Inbox> inboxes, TransportSettings settings, DecodingLimits limits)
            throws Exception {
        List<Transport> ts = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            Transport t = new Transport(i, "run-1", NAMES, codec(limits), inboxes.get(i), settings, AUTH);
            open.add(t);
            ts.add(t);
            addresses.add(t.bind(new InetSocketAddress("127.0.0.1", 0)));
        }
        List<Thread> connecting = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (Transport t : ts) {
            Thread th = new Thread(() -> {
                try {
                    t.connect(addresses, Duration.ofSeconds(20));
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            th.start();
            connecting.add(th);
        }
        for (Thread th : connecting) {
            th.join(30_000);
        }
        assertThat(failures).isEmpty();
        return ts;
    }

    private static List<Inbox> inboxes() {
        return List.of(new Inbox(), new Inbox(), new Inbox());
    }

    /** Connects places 0 and 1 of two, each from its own thread, listening at {@code at}. */
    static void connectPair(Transport p0, Transport p1, List<InetSocketAddress> at) throws Exception {
        java.util.concurrent.CompletableFuture<Void> accepting = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                p1.connect(at, Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, TransportTest.OWN_THREAD);
        p0.connect(at, Duration.ofSeconds(20));
        accepting.get(30, TimeUnit.SECONDS);
    }

    static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        waitUntil(what, condition, () -> "");
    }

    /** {@link #waitUntil(String, BooleanSupplier)}, saying {@code state} when it fails. */
    static void waitUntil(String what, BooleanSupplier condition, java.util.function.Supplier<String> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 20 s: " + what + " " + state.get());
            }
            Thread.sleep(5);       // polling a condition with a deadline, not waiting for a schedule
        }
    }

    /**
     * Runs each task on a thread of its own: a test's blocking task never waits for, or holds up, the common pool
     * (one thread on two cores), which an earlier test's task may still hold.
     */
    static final java.util.concurrent.Executor OWN_THREAD = task -> {
        Thread t = new Thread(task, "test-task");
        t.setDaemon(true);
        t.start();
    };

    @Test
    void messagesGoBothWaysInEachSendersOrderAndArriveWhole() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS);
        int n = 10_000;
        Thread fromP0 = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                t.get(0).send(2, new Ping(i, "p0", Colour.RED, GlobalId.of(0, 2, i), new long[] {i, -i}));
            }
        });
        Thread fromP1 = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                t.get(1).send(2, new Ping(i, "p1", Colour.GREEN, GlobalId.of(1, 2, i), new long[0]));
            }
        });
        fromP0.start();
        fromP1.start();
        int[] nextFrom = new int[2];
        for (int k = 0; k < 2 * n; k++) {
            Object[] m = in.get(2).next();
            int from = (int) m[0];
            Ping p = (Ping) m[1];
            assertThat(p.from()).isEqualTo(NAMES.get(from));
            assertThat(p.seq()).as("per-sender order from " + p.from()).isEqualTo(nextFrom[from]++);
            assertThat(p.replyTo()).isEqualTo(GlobalId.of(from, 2, p.seq()));
            assertThat(p.colour()).isEqualTo(from == 0 ? Colour.RED : Colour.GREEN);
            if (from == 0) {
                assertThat(p.payload()).containsExactly(p.seq(), -p.seq());
            }
        }
        fromP0.join(10_000);
        fromP1.join(10_000);
        // and back, from the accepting side to the connecting one
        t.get(2).send(0, "a reply");
        t.get(1).send(0, GlobalId.of(1, 0, 5));
        List<Object> atP0 = List.of(in.get(0).next()[1], in.get(0).next()[1]);
        assertThat(atP0).containsExactlyInAnyOrder("a reply", GlobalId.of(1, 0, 5));
        assertThat(in.get(2).received).isEmpty();
    }

    /** A registered record whose accessor throws, so that it cannot be serialized. */
    record Throwing(int n) {
        @Override
        public int n() {
            throw new IllegalStateException("no value yet");
        }
    }

    /** A message that cannot be serialized for another reason than registration fails naming it and its recipient. */
    @Test
    void aMessageThatCannotBeSerializedIsRefusedNamingItAndWhereItWent() {
        MessageCodec codec = new MessageCodec(List.of(Throwing.class), "list it in test.conf", null,
                DecodingLimits.DEFAULTS);
        assertThatThrownBy(() -> codec.encode(new Throwing(1), "actor sink@7 at place p1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot send a " + Throwing.class.getName() + " to actor sink@7 at place p1: it"
                        + " could not be serialized: ");
    }

    record Note(int n) {
    }

    /** A serializer of references that holds what a place's does (the place), here a marker to watch. */
    static final class HoldingSerializer
            extends com.esotericsoftware.kryo.Serializer<dev.switchboard.actor.ActorRef<?>> {
        final Object place;

        HoldingSerializer(Object place) {
            this.place = place;
        }

        @Override
        public void write(com.esotericsoftware.kryo.Kryo kryo, com.esotericsoftware.kryo.io.Output output,
                dev.switchboard.actor.ActorRef<?> ref) {
            throw new AssertionError("no reference is sent");
        }

        @Override
        public dev.switchboard.actor.ActorRef<?> read(com.esotericsoftware.kryo.Kryo kryo,
                com.esotericsoftware.kryo.io.Input input, Class<? extends dev.switchboard.actor.ActorRef<?>> type) {
            throw new AssertionError("no reference is read");
        }
    }

    /**
     * A codec keeps nothing reachable from the threads that encoded and decoded with it once it is dropped: a place
     * that has closed is collected, however many threads sent through it. Each thread kept its own Kryo in a thread
     * local whose value reached the codec's serializers, and through them the place, for the thread's life.
     */
    @Test
    void aDroppedCodecIsNotKeptByTheThreadsThatUsedIt() throws Exception {
        java.lang.ref.WeakReference<Object> place = usedAndDropped();
        for (int i = 0; i < 100 && place.get() != null; i++) {
            System.gc();
            Thread.onSpinWait();
        }
        assertThat(place.get()).as("the place, after 100 collections").isNull();
    }

    /** Encodes and decodes on this thread and another with a codec whose serializer holds a marker; drops both. */
    private static java.lang.ref.WeakReference<Object> usedAndDropped() throws Exception {
        Object marker = new Object();
        MessageCodec codec = new MessageCodec(List.of(Note.class), "test", new HoldingSerializer(marker),
                DecodingLimits.DEFAULTS);
        assertThat(codec.decode(codec.encode(new Note(1), "p1"))).isEqualTo(new Note(1));
        Thread other = new Thread(() -> codec.decode(codec.encode(new Note(2), "p1")));
        other.start();
        other.join();
        return new java.lang.ref.WeakReference<>(marker);
    }

    @Test
    void anUnregisteredClassIsRefusedAtTheSenderNamingItAndNothingIsSent() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS);
        assertThatThrownBy(() -> t.get(0).send(1, new Unlisted(3))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot send a " + Unlisted.class.getName() + " to place p1 (from place p0):"
                        + " its class " + Unlisted.class.getName() + " is not registered; list it under"
                        + " selectorSystem.messages in test.conf. Every place registers the same classes");
        // the other way, as a reply from the place that serves: the message names the class, both places, where
        assertThatThrownBy(() -> t.get(1).send(0, new Unlisted(4))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("to place p0 (from place p1)")
                .hasMessageContaining("its class " + Unlisted.class.getName() + " is not registered")
                .hasMessageContaining("selectorSystem.messages in test.conf")
                .hasMessageContaining("a class a place sends (a reply too) must be in that one list");
        assertThatThrownBy(() -> t.get(0).send(1, new Holder(new Unlisted(3))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the class " + Unlisted.class.getName() + " of something it holds");
        assertThatThrownBy(() -> t.get(0).send(1, new java.util.ArrayList<>()))
                .hasMessageContaining("its class java.util.ArrayList is not registered");
        t.get(0).send(1, new Holder("registered inside"));
        assertThat(in.get(1).next()[1]).isEqualTo(new Holder("registered inside"));
        assertThat(in.get(1).received).isEmpty();
        assertThatThrownBy(() -> t.get(0).send(0, "to itself")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot send to place index 0");
    }

    /** A place that leaves while the others still join fails their join at once, saying so: no wait for the rest. */
    @Test
    void aPlaceLostWhileThePlacesJoinFailsTheJoinAtOnceNamingIt() throws Exception {
        assertThat(joinOfP2WhenP1Leaves(new Inbox(), Duration.ofMinutes(10)))
                .isInstanceOf(PlaceConnectionException.class).hasMessage("place p2 cannot join: place p1 was lost"
                        + " while the places joined: it left: it shut down");
    }

    /** A place told to end (its program ended) does not fail its join for a loss: it waits for the rest as before. */
    @Test
    void aPlaceThatIsEndingKeepsJoiningWhenAnotherLeaves() throws Exception {
        Inbox ending = new Inbox() {
            @Override
            public boolean ending() {
                return true;
            }
        };
        assertThat(joinOfP2WhenP1Leaves(ending, Duration.ofSeconds(5))).isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p2 is not connected to p0, p1 after 5000 ms, the bootstrap timeout");
        assertThat(ending.lost.poll(20, TimeUnit.SECONDS)).isEqualTo("1: it left: it shut down");
    }

    /**
     * Places p1 and p2 join while place 0 never comes; once they are connected p1 leaves. Returns what p2's join
     * ({@code timeout}) threw.
     */
    private Throwable joinOfP2WhenP1Leaves(Inbox inboxOfP2, Duration timeout) throws Exception {
        Transport p1 = new Transport(1, "run", NAMES, codec(), new Inbox(), TransportSettings.DEFAULTS, AUTH);
        Transport p2 = new Transport(2, "run", NAMES, codec(), inboxOfP2, TransportSettings.DEFAULTS, AUTH);
        open.add(p1);
        open.add(p2);
        List<InetSocketAddress> addresses = List.of(new InetSocketAddress("127.0.0.1", 1),
                p1.bind(new InetSocketAddress("127.0.0.1", 0)), p2.bind(new InetSocketAddress("127.0.0.1", 0)));
        CompletableFuture<Throwable> joined2 = CompletableFuture.supplyAsync(() -> {
            try {
                p2.connect(addresses, timeout);
                return null;
            } catch (Throwable e) {
                return e;
            }
        }, OWN_THREAD);
        CompletableFuture.runAsync(() -> {
            try {
                p1.connect(addresses, Duration.ofMinutes(10));
            } catch (Exception e) {
                // it waits for place 0 until it is closed
            }
        }, OWN_THREAD);
        waitUntil("places p1 and p2 connected", () -> p1.isConnected(2) && p2.isConnected(1));
        p1.close();                                                  // p1 leaves before place 0 came
        return joined2.get(60, TimeUnit.SECONDS);
    }

    /**
     * Place p1 never starts: p0 dials p2 all the same (it used to dial p1 until its deadline first), so p2's join
     * names p1 alone as missing, not p0 too.
     */
    @Test
    void aPlaceThatNeverComesHoldsUpNoOtherConnection() throws Exception {
        Transport p0 = opened(0);
        Transport p2 = opened(2);
        List<InetSocketAddress> addresses = withoutP1(p0, p2);
        CompletableFuture<Throwable> joined0 = CompletableFuture.supplyAsync(() -> {
            try {
                p0.connect(addresses, Duration.ofSeconds(6));
                return null;
            } catch (Throwable e) {
                return e;
            }
        }, OWN_THREAD);
        assertThatThrownBy(() -> p2.connect(addresses, Duration.ofSeconds(3)))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p2 is not connected to p1 after 3000 ms, the bootstrap timeout");
        assertThat(joined0.get(30, TimeUnit.SECONDS)).isInstanceOf(PlaceConnectionException.class);
    }

    /** A place waiting for another that never comes says, at a bounded rate, whom it waits for and how long yet. */
    @Test
    void aPlaceThatWaitsToJoinSaysWhomItWaitsForAndHowLongYet() throws Exception {
        Transport p0 = opened(0);
        Transport p2 = opened(2);
        p0.joining().progressEvery(Duration.ofMillis(200));
        List<InetSocketAddress> addresses = withoutP1(p0, p2);
        List<String> said;
        try (CapturedLog log = new CapturedLog(Transport.class)) {
            CompletableFuture.runAsync(() -> {
                try {
                    p2.connect(addresses, Duration.ofSeconds(20));
                } catch (Exception e) {
                    // it waits for p1 until p0 gives up
                }
            }, OWN_THREAD);
            assertThatThrownBy(() -> p0.connect(addresses, Duration.ofSeconds(3)))
                    .isInstanceOf(PlaceConnectionException.class).hasMessageContaining("cannot reach place p1");
            said = log.lines.stream().filter(line -> line.startsWith("place p0 is joining")).toList();
        }
        assertThat(said).as("at most one line every 200 ms").hasSizeBetween(1, 3000 / 200 + 1);
        assertThat(said).anySatisfy(line -> assertThat(line).matches("place p0 is joining the places: still waiting"
                + " for p1; connected to p2; [0-2] s left before the bootstrap timeout \\(3000 ms\\)"));
    }

    /** Place {@code index} of the three, with the default settings, closed after the test. */
    private Transport opened(int index) {
        Transport t = new Transport(index, "run", NAMES, codec(), new Inbox(), TransportSettings.DEFAULTS, AUTH);
        open.add(t);
        return t;
    }

    /** Where places p0 and p2 listen, and between them an address where nobody does: p1 never comes. */
    private static List<InetSocketAddress> withoutP1(Transport p0, Transport p2) throws Exception {
        InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", TestPorts.free(1)[0]);
        return List.of(p0.bind(new InetSocketAddress("127.0.0.1", 0)), nobody,
                p2.bind(new InetSocketAddress("127.0.0.1", 0)));
    }

    /** The JDK's immutable collections travel without the program registering their classes (it cannot name them). */
    @Test
    void listsSetsAndMapsOfTheJdkTravelUnregistered() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS);
        List<Object> sent = List.of(List.of(), List.of(1), List.of(1, 2, 3), Set.of(), Set.of("a"),
                Set.of("a", "b", "c"), Map.of(), Map.of("k", 1), Map.of("k", 1, "l", 2),
                Map.of("nested", List.of(Set.of(7))));
        for (Object o : sent) {
            t.get(0).send(1, new Holder(o));
        }
        for (Object o : sent) {
            Object[] m = in.get(1).next();
            assertThat(m[1]).isEqualTo(new Holder(o));
            assertThat(((Holder) m[1]).inside().getClass()).as("still the JDK's immutable collection")
                    .isEqualTo(o.getClass());
        }
    }

    @Test
    void aPortInUseIsRefusedNamingThePlaceAndTheAddress() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Transport t = new Transport(1, "run", NAMES, codec(), new Inbox(), TransportSettings.DEFAULTS, AUTH);
            open.add(t);
            assertThatThrownBy(() -> t.bind(new InetSocketAddress("127.0.0.1", taken.getLocalPort())))
                    .isInstanceOf(PlaceConnectionException.class)
                    .hasMessageStartingWith("place p1 cannot listen at 127.0.0.1:" + taken.getLocalPort() + ": ")
                    .hasMessageEndingWith("(is the port in use? each place of a host needs a port of its own)");
        }
    }

    @Test
    void aStrangerIsRefusedAtTheHandshakeAndThePlacesGoOn() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS);
        Transport stranger = new Transport(0, "another-run", NAMES, codec(), new Inbox(),
                TransportSettings.DEFAULTS, AUTH);
        open.add(stranger);
        InetSocketAddress p2 = t.get(2).bind(new InetSocketAddress("127.0.0.1", 0));
        assertThatThrownBy(() -> stranger.connect(List.of(new InetSocketAddress("127.0.0.1", 1), p2, p2),
                Duration.ofSeconds(20))).isInstanceOf(PlaceConnectionException.class)
                // both addresses are p2's, so whichever refusal came last is named, as place 1 or 2
                // the refusing place names itself (p2), not the program it runs
                .hasMessageMatching("place p0 cannot join: place p[12] refused the connection: place p0 runs program"
                        + " another-run, place p2 another");
        // a raw socket whose first frame is a message, not a handshake: refused with the reason, then closed
        try (Socket raw = new Socket("127.0.0.1", p2.getPort())) {
            DataOutputStream out = new DataOutputStream(raw.getOutputStream());
            byte[] notHello = codec().encode("hello?", "test");
            out.writeShort(notHello.length);
            out.write(notHello);
            out.flush();
            DataInputStream din = new DataInputStream(raw.getInputStream());
            byte[] frame = new byte[din.readUnsignedShort()];
            din.readFully(frame);
            assertThat(Handshake.decode(io.netty.buffer.Unpooled.wrappedBuffer(frame)))
                    .isInstanceOfSatisfying(Handshake.Refused.class, r ->
                            assertThat(r.reason()).isEqualTo("a Proof frame cut short"));
            assertThatThrownBy(din::readInt).isInstanceOf(EOFException.class);
        }
        t.get(0).send(2, "still connected");
        assertThat(in.get(2).next()).containsExactly(0, "still connected");
    }

    @Test
    void aPlaceThatStopsReadingSlowsThenFailsItsSenderNamingIt() throws Exception {
        List<Inbox> in = inboxes();
        TransportSettings tight = TransportSettings.DEFAULTS.withBuffer(16 << 10, 64 << 10, Duration.ofMillis(300));
        List<Transport> t = places(in, tight);
        t.get(1).readFrom(0, false);
        long[] big = new long[1_000];                          // about 8 KB a message
        int sent = 0;
        Throwable failure = null;
        while (failure == null && sent < 1_000_000) {
            try {
                t.get(0).send(1, new Ping(sent, "p0", Colour.RED, GlobalId.of(0, 1, sent), big));
                sent++;
            } catch (PlaceConnectionException e) {
                failure = e;
            }
        }
        assertThat(failure).isNotNull().hasMessage("place p1 took no messages for 300 ms: its connection's"
                + " outbound buffer is full (65536 bytes); the message was not sent");
        // bounded: what is queued is the high-water mark plus what the sockets hold, not the million messages
        assertThat(sent).isLessThan(10_000);
        t.get(1).readFrom(0, true);
        for (int i = 0; i < sent; i++) {                      // everything accepted before the failure arrives
            assertThat(((Ping) in.get(1).next()[1]).seq()).isEqualTo(i);
        }
        t.get(0).send(1, "drained");
        assertThat(in.get(1).next()[1]).isEqualTo("drained");
    }

    @Test
    void aCutConnectionFailsLaterSendsNamingThePlaceAndTheReceiverHearsOfIt() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS);
        t.get(0).send(1, "before");
        assertThat(in.get(1).next()[1]).isEqualTo("before");
        t.get(1).readFrom(0, false);                          // p1 will not answer this ping
        java.util.concurrent.CompletableFuture<Throwable> ping = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                    try {
                        t.get(0).ping(1, Duration.ofMinutes(1));
                        return null;
                    } catch (Throwable e) {
                        return e;
                    }
                }, TransportTest.OWN_THREAD);
        waitUntil("the ping is out", () -> t.get(0).pendingPings() == 1);
        t.get(1).cut(0);
        waitUntil("p0 sees the cut", () -> !t.get(0).isConnected(1));
        // the ping fails with the loss (or, had the cut come first, at its send), not after its minute
        assertThat(ping.get(30, TimeUnit.SECONDS)).isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("p1").hasMessageContaining("lost");
        assertThatThrownBy(() -> t.get(0).send(1, "after")).isInstanceOf(PlaceConnectionException.class)
                .hasMessage("cannot send to place p1: its connection was lost (" + Transport.CLOSED_WITHOUT_A_WORD
                        + ")");
        assertThat(in.get(0).lost.poll(20, TimeUnit.SECONDS)).isEqualTo("1: " + Transport.CLOSED_WITHOUT_A_WORD);
        assertThat(in.get(1).lost.poll(20, TimeUnit.SECONDS)).isEqualTo("0: " + Transport.CLOSED_WITHOUT_A_WORD);
        t.get(0).send(2, "other places unaffected");
        assertThat(in.get(2).next()[1]).isEqualTo("other places unaffected");
    }

    @Test
    void aMessageLargerThanAFrameIsRefusedAtTheSenderAndTheConnectionStays() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in,
                TransportSettings.DEFAULTS.withBuffer(16 << 10, 256 << 10, Duration.ofSeconds(10)),
                DecodingLimits.DEFAULTS.withMaxFrameBytes(64 << 10));
        assertThatThrownBy(() -> t.get(0).send(1, new byte[100_000])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("cannot send a \\[B to place p1 \\(from place p0\\): it is 1000\\d\\d bytes serialized, more than the"
                        + " 65536 a message between places may have \\(DecodingLimits.maxFrameBytes; every place must"
                        + " allow it\\)");
        // in a delivery to an actor, the program's own message is named, not the frame around it
        assertThatThrownBy(() -> t.get(0).send(1, new Frames.Deliver(7, -1, new byte[100_000])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("cannot send a [B to place p1");
        t.get(0).send(1, new byte[1_000]);
        assertThat((byte[]) in.get(1).next()[1]).hasSize(1_000);
        assertThat(t.get(0).isConnected(1)).isTrue();
    }

    @Test
    void aStringLongerThanThePlacesAllowIsRefusedAtTheSenderNamingTheMessage() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS, DecodingLimits.DEFAULTS.withMaxStringLength(1_000));
        String tooLong = "\u00e9".repeat(1_001);                      // refused on arrival too: not ASCII
        assertThatThrownBy(() -> t.get(0).send(1, new Frames.Deliver(7, -1, List.of("short", tooLong))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot send a java.util.ImmutableCollections$List12 to place p1 (from place p0): it holds"
                        + " a string of 1001 characters, more than the 1000 a message between places may have"
                        + " (DecodingLimits.maxStringLength; every place must allow it)");
        assertThatThrownBy(() -> t.get(0).send(1, "a".repeat(1_001)))      // ASCII: the same limit
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a string of 1001 characters");
        t.get(0).send(1, "\u00e9".repeat(1_000));
        assertThat(in.get(1).next()[1]).isEqualTo("\u00e9".repeat(1_000));
        assertThat(t.get(0).isConnected(1)).isTrue();
    }

    @Test
    void aMessageOverTheDecodingLimitsIsRefusedAtItsSenderNamingItItsRecipientAndTheLimit() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS, DecodingLimits.DEFAULTS.withMaxElements(1_000)
                .withMaxDecodedBytes(10_000).withMaxDepth(20));
        java.util.function.Supplier<String> sink = () -> "actor sink@7";
        String to = "cannot send a " + Holder.class.getName() + " to actor sink@7 at place p1 (from place p0): ";
        assertThatThrownBy(() -> t.get(0).send(1, new Holder(List.copyOf(java.util.Collections.nCopies(1_001, 0))),
                sink)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(to + "its immutable list has 1001 elements, more than the 1000 a message between places"
                        + " may have (DecodingLimits.maxElements; every place must allow it)");
        assertThatThrownBy(() -> t.get(0).send(1, new Holder("\u00e9".repeat(5_001)), sink))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(to + "reading it would take more than the 10000 bytes a message between places may"
                        + " allocate for its arrays, strings, collections and maps (DecodingLimits.maxDecodedBytes;"
                        + " every place must allow it): its string of 5001 characters takes 10002");
        // what is charged adds up over the message, as it does where it is read
        assertThatThrownBy(() -> t.get(0).send(1, new Holder(List.of(new long[1_000], new long[300])), sink))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("its long array of 300 elements takes 2400, after 8048 for what came before it");
        Holder deep = new Holder(0);
        for (int i = 0; i < 30; i++) {
            deep = new Holder(deep);
        }
        Holder tooDeep = deep;
        assertThatThrownBy(() -> t.get(0).send(1, tooDeep, sink)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(to + "it nests objects deeper than the 20 levels a message between places may have"
                        + " (DecodingLimits.maxDepth; every place must allow it)")
                .hasNoCause();
        // a message at the limits is sent, and read where it arrives: 48 + 8000 + 1952 bytes, the whole budget
        t.get(0).send(1, new Holder(List.of(new long[1_000], "\u00e9".repeat(976))), sink);
        assertThat((List<?>) ((Holder) in.get(1).next()[1]).inside()).hasSize(2);
        t.get(0).send(1, new Holder(List.copyOf(java.util.Collections.nCopies(400, 0))));
        assertThat(((List<?>) ((Holder) in.get(1).next()[1]).inside())).hasSize(400);
        assertThat(t.get(0).isConnected(1)).isTrue();
        assertThat(in.get(1).received).isEmpty();
    }

    @Test
    void aSendFromTheReceiverNeverWaitsForAFullBufferItFailsAtOnce() throws Exception {
        java.util.concurrent.CompletableFuture<Throwable> failed = new java.util.concurrent.CompletableFuture<>();
        List<Transport> holder = new ArrayList<>();
        Inbox relay = new Inbox() {
            @Override
            public void received(int from, Object message) {
                // on p1's I/O thread: floods p2, which does not read, until the buffer is full
                try {
                    for (int i = 0; i < 1_000_000; i++) {
                        holder.get(0).send(2, new long[1_000]);
                    }
                    failed.complete(null);
                } catch (Throwable e) {
                    failed.complete(e);
                }
            }
        };
        List<Inbox> in = List.of(new Inbox(), relay, new Inbox());
        // a minute's bound: a send that waited for it would time this test out
        List<Transport> t = places(in,
                TransportSettings.DEFAULTS.withBuffer(16 << 10, 64 << 10, Duration.ofMinutes(1)));
        holder.add(t.get(1));
        t.get(2).readFrom(1, false);
        t.get(0).send(1, "flood p2");
        assertThat(failed.get(30, TimeUnit.SECONDS)).isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p2 is not taking messages fast enough, and a send from the transport's own I/O"
                        + " thread cannot wait for it; the message was not sent");
        assertThat(t.get(1).ping(0, Duration.ofSeconds(20))).isPositive();    // p1's I/O thread is free again
    }

    @Test
    void aPlaceThatClosesAConnectionSaysWhyAndBothSidesHearIt() throws Exception {
        List<Inbox> in = inboxes();
        List<Transport> t = places(in, TransportSettings.DEFAULTS);
        t.get(0).send(1, new Frames.Closing("leaving"));
        assertThat(in.get(1).lost.poll(20, TimeUnit.SECONDS)).isEqualTo("0: place p0 closed the connection: leaving");
        assertThat(in.get(0).lost.poll(20, TimeUnit.SECONDS)).isEqualTo("1: " + Transport.CLOSED_WITHOUT_A_WORD);
        assertThat(in.get(1).received).isEmpty();
        assertThatThrownBy(() -> t.get(0).send(1, "after")).isInstanceOf(PlaceConnectionException.class)
                .hasMessage("cannot send to place p1: its connection was lost (" + Transport.CLOSED_WITHOUT_A_WORD
                        + ")");
    }

    @Test
    void placesMayStartInAnyOrderAndOneThatNeverComesIsNamed() throws Exception {
        int port = TestPorts.free(1)[0];                   // free now; p1 listens on it later
        List<String> two = List.of("p0", "p1");
        Inbox at1 = new Inbox();
        Transport p0 = new Transport(0, "run-1", two, codec(), new Inbox(), TransportSettings.DEFAULTS, AUTH);
        Transport p1 = new Transport(1, "run-1", two, codec(), at1, TransportSettings.DEFAULTS, AUTH);
        open.add(p0);
        open.add(p1);
        InetSocketAddress a0 = p0.bind(new InetSocketAddress("127.0.0.1", 0));
        List<InetSocketAddress> addresses = List.of(a0, new InetSocketAddress("127.0.0.1", port));
        java.util.concurrent.CompletableFuture<Throwable> early = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                    try {
                        p0.connect(addresses, Duration.ofSeconds(30));   // p1 is not listening yet
                        return null;
                    } catch (Throwable e) {
                        return e;
                    }
                }, TransportTest.OWN_THREAD);
        waitUntil("p0 has found p1 not listening", () -> p0.failedConnects() > 0);
        p1.bind(addresses.get(1));
        p1.connect(addresses, Duration.ofSeconds(30));
        assertThat(early.get(30, TimeUnit.SECONDS)).isNull();
        p0.send(1, "late but connected");
        assertThat(at1.next()).containsExactly(0, "late but connected");

        Transport alone = new Transport(0, "run-2", two, codec(), new Inbox(), TransportSettings.DEFAULTS, AUTH);
        open.add(alone);
        InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", TestPorts.free(1)[0]);
        assertThatThrownBy(() -> alone.connect(List.of(a0, nobody), Duration.ofMillis(300)))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageStartingWith("place p0 cannot reach place p1 at " + nobody + " within 300 ms (the bootstrap timeout):");
    }
}
