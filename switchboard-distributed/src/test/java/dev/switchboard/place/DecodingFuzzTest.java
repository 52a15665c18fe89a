package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Seeded fuzzing of what a place decodes ({@link WireFuzzer}): every case is either a message or refused, never an
 * error of the JVM's (no {@code OutOfMemoryError}, no {@code StackOverflowError}), and what decoding it allocated
 * stays within {@link WireFuzzer#allocationBound}; over a real connection, each refused case closes the connection
 * and the place keeps running. {@code -Dswitchboard.fuzz.cases=N} and {@code -Dswitchboard.fuzz.seed=S} run more
 * or others ({@code ./switchboard stress --fuzz}).
 */
class DecodingFuzzTest {
    static final int CASES = Integer.getInteger("switchboard.fuzz.cases", 6_000);
    static final long SEED = Long.getLong("switchboard.fuzz.seed", 0x5eedL);
    /** Cases sent over a real connection: each refusal costs a new connection and handshake. */
    static final int CONNECTION_CASES = Math.max(300, CASES / 20);

    private static final byte[] SECRET = "the fuzzed program's secret, 32b".getBytes();
    private Transport p1;

    @AfterEach
    void close() {
        if (p1 != null) {
            p1.close();
        }
    }

    @Test
    void aClassNamedInAFrameIsRefusedNotLoaded() {
        MessageCodec codec = WireFuzzer.codec();
        com.esotericsoftware.kryo.io.Output out = new com.esotericsoftware.kryo.io.Output(64, -1);
        out.writeVarInt(1, true);                                    // Kryo's "a class by name" marker
        out.writeVarInt(12345, true);                                // the name's number, the frame's choice
        out.writeString("java.lang.String");
        out.writeString("then the value");
        assertThatThrownBy(() -> codec.decode(out.toBytes())).hasMessageContaining("names a class instead of giving"
                + " its registered id");
    }

    /** Runs {@code test} within a time that grows with the number of cases (a minute and more). */
    private static void inTime(long millisPerCase, Executable test) {
        assertTimeoutPreemptively(Duration.ofMillis(120_000 + millisPerCase * CASES), test);
    }

    @Test
    void everyCaseIsAMessageOrRefusedAndItsAllocationIsBounded() {
        inTime(5, this::everyCase);
    }

    private void everyCase() {
        WireFuzzer fuzz = new WireFuzzer(SEED);
        MessageCodec codec = fuzz.target();
        for (Object m : WireFuzzer.samples()) {                  // each sample decodes, and warms the thread's Kryo
            assertThat(codec.decode(codec.encode(m, "test"))).isNotNull();
        }
        int refused = 0;
        long largest = 0;
        WireFuzzer.Case worst = null;
        java.util.Map<String, Integer> refusedByKind = new java.util.TreeMap<>();
        for (int n = 0; n < CASES; n++) {
            WireFuzzer.Case c = fuzz.next(n);
            long[] used = new long[1];
            if (!decodes(fuzz, c, used)) {
                refused++;
                refusedByKind.merge(c.kind().startsWith("a ") && c.kind().contains("claiming") ? "lying lengths"
                        : c.kind(), 1, Integer::sum);
            }
            if (used[0] > largest) {
                largest = used[0];
                worst = c;
            }
        }
        System.out.printf("fuzzed %d cases (seed %#x): %d refused %s; the largest allocation %d bytes, by %s%n",
                CASES, SEED, refused, refusedByKind, largest, worst);
        assertThat(refused).as("most cases are refused").isGreaterThan(CASES / 2);
        assertThat(refusedByKind.get("lying lengths")).as("every lying length is refused").isEqualTo(CASES / 6);
        assertThat(refusedByKind.get("nesting past the limit")).isPositive();
    }

    @Test
    void atTheDefaultLimitsALyingLengthCostsAtMostTheDecodingBudget() {
        inTime(5, this::lyingLengthsAtTheDefaults);
    }

    private void lyingLengthsAtTheDefaults() {
        WireFuzzer fuzz = new WireFuzzer(SEED + 2, DecodingLimits.DEFAULTS);
        MessageCodec codec = fuzz.target();
        for (Object m : WireFuzzer.samples()) {
            codec.decode(codec.encode(m, "test"));
        }
        long largest = 0;
        WireFuzzer.Case worst = null;
        for (int n = 0; n < CASES / 6; n++) {
            WireFuzzer.Case c = fuzz.lie(n);
            long[] used = new long[1];
            assertThat(decodes(fuzz, c, used)).as("%s is refused", c).isFalse();
            if (used[0] > largest) {
                largest = used[0];
                worst = c;
            }
        }
        System.out.printf("at the default limits, %d lying lengths refused; the largest allocation %d bytes, by %s%n",
                CASES / 6, largest, worst);
    }

    @Test
    void overAConnectionEachRefusalClosesItAndThePlaceGoesOn() {
        inTime(10, this::overAConnection);
    }

    private void overAConnection() throws Exception {
        WireFuzzer fuzz = new WireFuzzer(SEED + 1);
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        List<String> names = List.of("p0", "p1");
        p1 = new Transport(1, "fuzz", names, WireFuzzer.codec(), inbox, TransportSettings.DEFAULTS,
                Authentication.hmac(SECRET));
        InetSocketAddress at = p1.bind(new InetSocketAddress("127.0.0.1", 0));
        MessageCodec mine = WireFuzzer.codec();                  // this thread's verdicts, and its frames
        byte[] build = mine.buildIdentity();
        int closed = 0;
        int delivered = 0;
        RawPeer peer = null;
        try {
            for (int n = 0; n < CONNECTION_CASES; n++) {
                if (peer == null) {
                    TransportTest.waitUntil("place p1 has let the last connection go", () -> !p1.isConnected(0));
                    peer = new RawPeer(at);
                    assertThat(peer.handshake(SECRET, "fuzz", build, 0, 1)).isEqualTo(new Handshake.Welcome(1));
                }
                WireFuzzer.Case c = fuzz.next(n);
                Object message;
                try {
                    message = mine.decode(c.bytes());
                } catch (RuntimeException refused) {
                    message = null;
                }
                peer.sendFrame(c.bytes());
                if (message == null || message instanceof Frames.Closing) {
                    assertThat(peer.closedByPlace()).as("the place closed the connection after %s", c).isTrue();
                    peer.close();
                    peer = null;
                    closed++;
                } else {
                    if (!(message instanceof Frames.Ping || message instanceof Frames.Pong)) {
                        delivered++;
                    }
                    // a ping of our own, answered after the case: the place read the case and is still here
                    long id = -1 - n;
                    peer.sendFrame(mine.encode(new Frames.Ping(id), "p1"));
                    awaitPong(peer, mine, id);
                }
            }
        } finally {
            if (peer != null) {
                peer.close();
            }
        }
        System.out.printf("over a connection: %d cases, %d closed it, %d delivered%n", CONNECTION_CASES, closed,
                delivered);
        assertThat(inbox.received).hasSize(delivered);
        assertThat(closed).isGreaterThan(CONNECTION_CASES / 2);
        // the place goes on: a real place 0 joins, and its message arrives
        TransportTest.waitUntil("place p1 has let the last connection go", () -> !p1.isConnected(0));
        inbox.received.clear();
        Transport p0 = new Transport(0, "fuzz", names, WireFuzzer.codec(), new TransportTest.Inbox(),
                TransportSettings.DEFAULTS, Authentication.hmac(SECRET));
        try {
            TransportTest.connectPair(p0, p1, List.of(p0.bind(new InetSocketAddress("127.0.0.1", 0)), at));
            p0.send(1, new WireFuzzer.Point(1, 2));
            assertThat(inbox.next()).containsExactly(0, new WireFuzzer.Point(1, 2));
        } finally {
            p0.close();
        }
    }

    /**
     * Decodes case {@code c} with the fuzzer's codec on this thread; whether it decoded, and in {@code used[0]} what
     * decoding it allocated, which must be within the fuzzer's bound; an error of the JVM's fails the test.
     */
    private static boolean decodes(WireFuzzer fuzz, WireFuzzer.Case c, long[] used) {
        long before = WireFuzzer.allocated();
        boolean decoded;
        try {
            fuzz.target().decode(c.bytes());
            decoded = true;
        } catch (RuntimeException e) {
            decoded = false;
        } catch (Throwable e) {
            throw new AssertionError(c + " threw " + e, e);
        }
        used[0] = WireFuzzer.allocated() - before;
        assertThat(used[0]).as("bytes allocated decoding %s", c).isLessThanOrEqualTo(
                fuzz.allocationBound(c.bytes().length));
        return decoded;
    }

    /** Reads the place's frames until the Pong of {@code id}. */
    private static void awaitPong(RawPeer peer, MessageCodec codec, long id) throws IOException {
        DataInputStream in = new DataInputStream(peer.socket.getInputStream());
        while (true) {
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            if (codec.decode(frame) instanceof Frames.Pong p && p.id() == id) {
                return;
            }
        }
    }
}
