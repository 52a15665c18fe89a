package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults on the link between two places, injected by a {@link FaultProxy} between them: a stalled or a dropping
 * link is detected by both sides within the failure timeout, naming what was last heard; a cut one at once; a slow
 * one loses and duplicates nothing and is not declared failed; a place that leaves is told apart from one whose
 * connection ends without a word.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransportFaultTest {
    record Seq(int n) {
    }

    private static final List<String> NAMES = List.of("p0", "p1");
    /** Heartbeats every 100 ms, a place silent for 2 s declared failed. */
    private static final TransportSettings DETECTING = TransportSettings.DEFAULTS
            .withFailureDetection(Duration.ofMillis(100), Duration.ofSeconds(2));
    private final List<AutoCloseable> open = new ArrayList<>();
    private final TransportTest.Inbox in0 = new TransportTest.Inbox();
    private final TransportTest.Inbox in1 = new TransportTest.Inbox();
    private Transport p0;
    private Transport p1;
    private FaultProxy proxy;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Places 0 and 1, place 0 reaching place 1 through the proxy. */
    private void connectThroughProxy() throws Exception {
        p0 = new Transport(0, "run-f", NAMES, new MessageCodec(List.of(Seq.class), "test"), in0, DETECTING,
                TransportTest.AUTH);
        p1 = new Transport(1, "run-f", NAMES, new MessageCodec(List.of(Seq.class), "test"), in1, DETECTING,
                TransportTest.AUTH);
        open.add(p0);
        open.add(p1);
        InetSocketAddress a0 = p0.bind(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress a1 = p1.bind(new InetSocketAddress("127.0.0.1", 0));
        proxy = new FaultProxy(a1);
        open.add(0, proxy);
        CompletableFuture<Void> accepting = CompletableFuture.runAsync(() -> {
            try {
                p1.connect(List.of(a0, a1), Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, TransportTest.OWN_THREAD);
        p0.connect(List.of(a0, proxy.address()), Duration.ofSeconds(20));
        accepting.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aStalledLinkIsDetectedOnBothSidesNamingWhatWasLastHeard() throws Exception {
        connectThroughProxy();
        p0.send(1, new Seq(1));
        assertThat(in1.next()).containsExactly(0, new Seq(1));
        assertThat(p0.ping(1, Duration.ofSeconds(20))).isPositive();     // something came back through the proxy
        long t0 = System.nanoTime();
        proxy.stall();
        String lost = in0.lost.poll(20, TimeUnit.SECONDS);
        System.out.printf("a stalled link: detected after %.2f s (failure timeout 2 s)%n", (System.nanoTime() - t0) / 1e9);
        assertThat(lost).matches("1: nothing came from it for \\d+\\.\\d s \\(the"
                + " failure timeout is 2000 ms\\); the last frame was a (Pong|Heartbeat) at \\d\\d:\\d\\d:\\d\\d\\.\\d{3}: it is"
                + " frozen, overloaded, or cut off");
        // p1 detects it too, unless the proxy passed p0's close on first
        assertThat(in1.lost.poll(20, TimeUnit.SECONDS)).matches("0: (nothing came from it for .*|"
                + java.util.regex.Pattern.quote(Transport.CLOSED_WITHOUT_A_WORD) + ")");
        assertThatThrownBy(() -> p0.send(1, new Seq(2))).isInstanceOf(PlaceConnectionException.class)
                .hasMessageStartingWith("cannot send to place p1: its connection was lost (nothing came from it for");
    }

    @Test
    void aLinkThatDropsEverythingIsDetectedLikeAStalledOne() throws Exception {
        connectThroughProxy();
        long t0 = System.nanoTime();
        proxy.drop();
        String lost0 = in0.lost.poll(20, TimeUnit.SECONDS);
        String lost1 = in1.lost.poll(20, TimeUnit.SECONDS);
        System.out.printf("a dropping link: detected after %.2f s (failure timeout 2 s)%n",
                (System.nanoTime() - t0) / 1e9);
        // the side that detects it first closes its end; the proxy, still reading, passes the close on to the other
        assertThat(List.of(lost0, lost1)).anyMatch(l -> l.matches("[01]: nothing came from it for .*"))
                .allMatch(l -> l.matches("[01]: (nothing came from it for .*|"
                        + java.util.regex.Pattern.quote(Transport.CLOSED_WITHOUT_A_WORD) + ")"));
    }

    @Test
    void aCutLinkFailsAtOnceAndWhatArrivedIsAPrefixOfWhatWasSent() throws Exception {
        connectThroughProxy();
        int n = 100_000;
        CompletableFuture<Integer> sender = CompletableFuture.supplyAsync(() -> {
            for (int i = 0; i < n; i++) {
                try {
                    p0.send(1, new Seq(i));
                } catch (PlaceConnectionException cut) {
                    return i;
                }
            }
            return n;
        }, TransportTest.OWN_THREAD);
        for (int i = 0; i < 1_000; i++) {
            assertThat(in1.next()).containsExactly(0, new Seq(i));
        }
        long t0 = System.nanoTime();
        proxy.cut();
        String lost = in1.lost.poll(20, TimeUnit.SECONDS);
        System.out.printf("a cut link: detected after %.3f s%n", (System.nanoTime() - t0) / 1e9);
        assertThat(lost).isEqualTo("0: " + Transport.CLOSED_WITHOUT_A_WORD);
        assertThat(in0.lost.poll(20, TimeUnit.SECONDS)).isEqualTo("1: " + Transport.CLOSED_WITHOUT_A_WORD);
        int sent = sender.get(30, TimeUnit.SECONDS);
        assertThat(sent).as("the sender failed once the link was cut").isLessThan(n);
        int next = 1_000;
        for (Object[] m; (m = in1.received.poll()) != null; next++) {
            assertThat(m).containsExactly(0, new Seq(next));   // in order, none twice, none skipped
        }
        assertThat(next).isLessThanOrEqualTo(sent);
    }

    @Test
    void aSlowLinkLosesNothingDuplicatesNothingAndIsNotDeclaredFailed() throws Exception {
        connectThroughProxy();
        proxy.delay(20);
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            p0.send(1, new Seq(i));
        }
        for (int i = 0; i < n; i++) {
            assertThat(in1.next()).containsExactly(0, new Seq(i));
        }
        assertThat(p0.ping(1, Duration.ofSeconds(20))).isPositive();      // both ways, after all of them
        assertThat(in1.received).isEmpty();
        assertThat(in0.lost).isEmpty();
        assertThat(in1.lost).isEmpty();
    }

    @Test
    void aPlaceThatLeavesIsToldApartFromOneWhoseConnectionEndsWithoutAWord() throws Exception {
        connectThroughProxy();
        p1.close();
        assertThat(in0.lost.poll(20, TimeUnit.SECONDS)).isEqualTo("1: it left: it shut down");
    }
}
