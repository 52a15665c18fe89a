package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Who gets in: a place waits for place 0 and strangers try first, as an attacker on the network would — without
 * the secret, with a proof from another connection, with another build or mode, saying nothing, dribbling bytes,
 * opening many connections, sending what is not a handshake. Each is refused or closed, and the real place 0 then
 * joins and its messages arrive.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PlaceSecurityTest {
    record Note(String text) {
    }

    private static final byte[] SECRET = "the program's secret, 32 bytes..".getBytes(StandardCharsets.UTF_8);
    private static final List<String> NAMES = List.of("p0", "p1");
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static MessageCodec codec(Class<?>... classes) {
        return new MessageCodec(List.of(classes), "test");
    }

    private Transport place(int index, Authentication auth, TransportSettings settings, TransportTest.Inbox inbox,
                            Class<?>... classes) {
        Transport t = new Transport(index, "run-1", NAMES, codec(classes), inbox, settings, auth);
        open.add(t);
        return t;
    }

    /** The real place 0 connects to {@code p1} at {@code at}; a message from it arrives. */
    private void realPlaceZeroJoins(Transport p1, InetSocketAddress at, TransportTest.Inbox inbox) throws Exception {
        Transport p0 = place(0, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, new TransportTest.Inbox(),
                Note.class);
        TransportTest.connectPair(p0, p1, List.of(p0.bind(new InetSocketAddress("127.0.0.1", 0)), at));
        p0.send(1, new Note("from the real place 0"));
        assertThat(inbox.next()).containsExactly(0, new Note("from the real place 0"));
    }

    private static final String NO_PROOF = "it did not prove that it knows the program's secret"
            + HandshakeHandler.SECRETS_DIFFER;

    /** Where {@code place} listens, from now on. */
    private static InetSocketAddress listen(Transport place) throws InterruptedException {
        return place.bind(new InetSocketAddress("127.0.0.1", 0));
    }

    @Test
    void aStrangerWithoutTheSecretIsRefusedAndTheRealPlaceJoinsAfter() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        Transport p1 = place(1, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, inbox, Note.class);
        InetSocketAddress at = listen(p1);
        byte[] build = codec(Note.class).buildIdentity();
        try (RawPeer stranger = new RawPeer(at)) {
            // it knows the program's id and build (they are no secret), claims to be place 0, and guesses a proof
            Handshake.Frame last = stranger.handshake("a guessed secret, 32 bytes long.".getBytes(), "run-1", build,
                    0, 1);
            assertThat(last).isEqualTo(new Handshake.Refused(NO_PROOF));
            assertThat(stranger.closedByPlace()).isTrue();
        }
        assertThat(p1.isConnected(0)).isFalse();
        realPlaceZeroJoins(p1, at, inbox);
        assertThat(inbox.received).isEmpty();
    }

    @Test
    void aProofFromAnotherConnectionIsWorthNothing() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        Transport p1 = place(1, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, inbox, Note.class);
        InetSocketAddress at = listen(p1);
        byte[] build = codec(Note.class).buildIdentity();
        byte[] seen;
        try (RawPeer first = new RawPeer(at)) {
            // a real place's proof on one connection, as an eavesdropper would see it
            first.send(new Handshake.Hello(Authentication.Mode.HMAC, "run-1", build, 0, first.nonce));
            Handshake.Challenge c = (Handshake.Challenge) first.receive();
            seen = Handshake.proof(SECRET, "connector", "run-1", build, 0, 1, first.nonce, c.nonce());
        }
        try (RawPeer replay = new RawPeer(at)) {
            replay.send(new Handshake.Hello(Authentication.Mode.HMAC, "run-1", build, 0, replay.nonce));
            assertThat(replay.receive()).isInstanceOf(Handshake.Challenge.class);
            replay.send(new Handshake.Proof(seen));
            assertThat(replay.receive())
                    .isEqualTo(new Handshake.Refused(NO_PROOF));
        }
        try (RawPeer reflecting = new RawPeer(at)) {
            // the place's own proof sent back to it: the roles differ, so it proves nothing
            reflecting.send(new Handshake.Hello(Authentication.Mode.HMAC, "run-1", build, 0, reflecting.nonce));
            Handshake.Challenge c = (Handshake.Challenge) reflecting.receive();
            reflecting.send(new Handshake.Proof(c.proof()));
            assertThat(reflecting.receive())
                    .isEqualTo(new Handshake.Refused(NO_PROOF));
        }
        realPlaceZeroJoins(p1, at, inbox);
    }

    @Test
    void aListenerWithoutTheSecretIsNotTakenForThePlace() throws Exception {
        Transport impostor = place(1, Authentication.hmac("another secret, 32 bytes long...".getBytes()),
                TransportSettings.DEFAULTS, new TransportTest.Inbox(), Note.class);
        InetSocketAddress at = listen(impostor);
        Transport p0 = place(0, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, new TransportTest.Inbox(),
                Note.class);
        InetSocketAddress a0 = p0.bind(new InetSocketAddress("127.0.0.1", 0));
        assertThatThrownBy(() -> p0.connect(List.of(a0, at), Duration.ofSeconds(20)))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p0 cannot join: the place at " + at + " did not prove that it knows the program's"
                        + " secret: it is not place p1 of this program" + HandshakeHandler.SECRETS_DIFFER);
        assertThat(impostor.isConnected(0)).isFalse();
        // the listener cannot tell a stranger from a place with another secret, so it waits for its timeout, and
        // says then what the handshake it accepted met, and which place the peer said it was (not proved)
        assertThatThrownBy(() -> impostor.connect(List.of(a0, at), Duration.ofMillis(500)))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageStartingWith("place p1 is not connected to p0 after 500 ms, the bootstrap timeout; a"
                        + " connection from ")
                .hasMessageEndingWith(", which said it was place p0, failed its handshake: place p0 refused the"
                        + " connection: the place at " + at
                        + " did not prove that it knows the program's secret: it is not place p1 of this program"
                        + HandshakeHandler.SECRETS_DIFFER);
    }

    @Test
    void anotherBuildOrAnotherModeIsRefusedNamingIt() throws Exception {
        Transport p1 = place(1, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, new TransportTest.Inbox(),
                Note.class);
        InetSocketAddress at = listen(p1);
        Transport otherBuild = place(0, Authentication.hmac(SECRET), TransportSettings.DEFAULTS,
                new TransportTest.Inbox(), Note.class, TransportTest.Holder.class);
        InetSocketAddress a0 = otherBuild.bind(new InetSocketAddress("127.0.0.1", 0));
        assertThatThrownBy(() -> otherBuild.connect(List.of(a0, at), Duration.ofSeconds(20)))
                .isInstanceOf(PlaceConnectionException.class)
                // each build named as whose it is: the joining place's, then the refusing one's
                .hasMessage("place p0 cannot join: place p1 refused the connection: place p0 runs another build of"
                        + " the program (build " + Handshake.shortly(otherBuild.build()) + ", place p1's is "
                        + Handshake.shortly(p1.build()) + "): their message classes differ");
        Transport unauthenticated = place(0, Authentication.unauthenticated(), TransportSettings.DEFAULTS,
                new TransportTest.Inbox(), Note.class);
        InetSocketAddress b0 = unauthenticated.bind(new InetSocketAddress("127.0.0.1", 0));
        assertThatThrownBy(() -> unauthenticated.connect(List.of(b0, at), Duration.ofSeconds(20)))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p0 cannot join: place p1 refused the connection: it authenticates with"
                        + " UNAUTHENTICATED, this place with HMAC");
        assertThat(p1.isConnected(0)).isFalse();
    }

    @Test
    void whatIsNotAHandshakeIsRefusedOrClosed() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        Transport p1 = place(1, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, inbox, Note.class);
        InetSocketAddress at = listen(p1);
        try (RawPeer http = new RawPeer(at)) {
            // a length of 0x4745 ("GE"): over the handshake's 1024 bytes, closed without reading more
            http.sendRaw("GET / HTTP/1.1\r\nHost: p1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(http.closedByPlace()).isTrue();
        }
        try (RawPeer wrongMagic = new RawPeer(at)) {
            wrongMagic.sendRaw(new byte[] {0, 12, 1, 'N', 'O', 'P', 'E', 1, 1, 0, 0, 0, 0, 0});
            assertThat(wrongMagic.receive()).isEqualTo(new Handshake.Refused(
                    "not a Switchboard place (the first bytes are not its handshake)"));
            assertThat(wrongMagic.closedByPlace()).isTrue();
        }
        try (RawPeer proofFirst = new RawPeer(at)) {
            proofFirst.send(new Handshake.Proof(new byte[Handshake.PROOF_BYTES]));
            assertThat(proofFirst.receive())
                    .isEqualTo(new Handshake.Refused("the first frame must be a Hello, not a Proof"));
        }
        try (RawPeer aboveItself = new RawPeer(at)) {
            aboveItself.send(new Handshake.Hello(Authentication.Mode.HMAC, "run-1", codec(Note.class).buildIdentity(),
                    1, aboveItself.nonce));
            assertThat(aboveItself.receive()).isEqualTo(new Handshake.Refused("place index 1 does not connect to"
                    + " place p1 (index 1): only places below it do"));
        }
        realPlaceZeroJoins(p1, at, inbox);
    }

    @Test
    void aSilentOrDribblingPeerIsClosedAtTheHandshakeTimeout() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        Transport p1 = place(1, Authentication.hmac(SECRET),
                TransportSettings.DEFAULTS.withHandshake(Duration.ofMillis(500), 16), inbox, Note.class);
        InetSocketAddress at = listen(p1);
        try (RawPeer silent = new RawPeer(at); RawPeer dribbling = new RawPeer(at)) {
            Thread dribbler = new Thread(() -> {
                try {
                    OutputStream out = dribbling.socket.getOutputStream();
                    out.write(new byte[] {0, 100});           // a frame of 100 bytes, then a byte at a time
                    while (true) {
                        out.write(1);
                        out.flush();
                        Thread.sleep(20);                     // the dribble's pace: the test's own input
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the place: the dribble ends
                }
            });
            dribbler.start();
            assertThat(silent.closedByPlace()).isTrue();
            assertThat(dribbling.closedByPlace()).isTrue();
            dribbler.interrupt();
            dribbler.join(20_000);
        }
        TransportTest.waitUntil("no handshake pending", () -> p1.pendingHandshakes() == 0);
        realPlaceZeroJoins(p1, at, inbox);
    }

    @Test
    void connectionsInTheirHandshakeAreBoundedAndTheRestClosedAtOnce() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        Transport p1 = place(1, Authentication.hmac(SECRET),
                TransportSettings.DEFAULTS.withHandshake(Duration.ofMinutes(1), 2), inbox, Note.class);
        InetSocketAddress at = listen(p1);
        int bound = p1.maxPendingHandshakes();                 // the setting, 2, or two per place: 4
        java.util.List<RawPeer> silent = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < bound; i++) {
                silent.add(new RawPeer(at));
            }
            TransportTest.waitUntil(bound + " handshakes pending", () -> p1.pendingHandshakes() == bound);
            try (RawPeer oneMore = new RawPeer(at)) {
                assertThat(oneMore.closedByPlace()).isTrue();   // a minute before the timeout: closed for the bound
            }
            assertThat(p1.pendingHandshakes()).isEqualTo(bound);
        } finally {
            for (RawPeer p : silent) {
                p.close();
            }
        }
        TransportTest.waitUntil("the pending handshakes ended", () -> p1.pendingHandshakes() == 0);
        realPlaceZeroJoins(p1, at, inbox);
    }

    @Test
    void aPlaceThatComesWhileTheBoundIsFullDialsAgainAndJoinsOnceItFrees() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        Transport p1 = place(1, Authentication.hmac(SECRET),
                TransportSettings.DEFAULTS.withHandshake(Duration.ofMinutes(1), 2), inbox, Note.class);
        InetSocketAddress at = listen(p1);
        Transport p0 = place(0, Authentication.hmac(SECRET), TransportSettings.DEFAULTS, new TransportTest.Inbox(),
                Note.class);
        InetSocketAddress a0 = p0.bind(new InetSocketAddress("127.0.0.1", 0));
        joinsWhileTheBoundIsFull(p0, a0, p1, at, inbox);
    }

    /**
     * Fills {@code p1}'s bound of connections in their handshake with silent strangers, has {@code p0} join: its
     * connections are closed before a word and it dials again; once the strangers leave it joins, and a message
     * goes through.
     */
    static void joinsWhileTheBoundIsFull(Transport p0, InetSocketAddress a0, Transport p1, InetSocketAddress at,
                                         TransportTest.Inbox inbox) throws Exception {
        java.util.List<RawPeer> silent = new java.util.ArrayList<>();
        java.util.concurrent.CompletableFuture<Void> joining;
        try {
            for (int i = 0; i < p1.maxPendingHandshakes(); i++) {
                silent.add(new RawPeer(at));
            }
            TransportTest.waitUntil("the bound is full", () -> p1.pendingHandshakes() == p1.maxPendingHandshakes());
            joining = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    TransportTest.connectPair(p0, p1, List.of(a0, at));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, TransportTest.OWN_THREAD);
            TransportTest.waitUntil("place 0 has dialed again", () -> p0.failedConnects() >= 2);
        } finally {
            for (RawPeer p : silent) {
                p.close();
            }
        }
        joining.get(30, TimeUnit.SECONDS);
        p0.send(1, new Note("joined after the strangers left"));
        assertThat(inbox.next()).containsExactly(0, new Note("joined after the strangers left"));
    }
}
