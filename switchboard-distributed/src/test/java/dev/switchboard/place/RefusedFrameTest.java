package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A place that refuses a frame of an established connection: a peer (a {@link RawPeer} through the real handshake)
 * writes, in one go, a good message, one over the place's decoding limits, and more good ones; the place closes
 * the connection, and what it delivered from the link is the prefix before the refused frame.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RefusedFrameTest {
    record Note(int i) {
    }

    record Many(List<Object> items) {
    }

    private static final byte[] SECRET = "the refusing program's secret 32".getBytes(StandardCharsets.UTF_8);
    private static final List<String> NAMES = List.of("p0", "p1");
    /** The receiving place's limits: a list of more than 10 elements is over them. */
    private static final DecodingLimits SMALL = DecodingLimits.DEFAULTS.withMaxElements(10);
    private Transport p1;

    @AfterEach
    void close() {
        if (p1 != null) {
            p1.close();
        }
    }

    private static MessageCodec codec(DecodingLimits limits) {
        return new MessageCodec(List.of(Note.class, Many.class, ArrayList.class), "test", null, limits);
    }

    /** Place p1 with {@link #SMALL} limits, listening; a peer through its handshake as place p0. */
    private RawPeer placeAndPeer(TransportTest.Inbox inbox) throws Exception {
        p1 = new Transport(1, "refusing", NAMES, codec(SMALL), inbox, TransportSettings.DEFAULTS,
                Authentication.hmac(SECRET));
        InetSocketAddress at = p1.bind(new InetSocketAddress("127.0.0.1", 0));
        RawPeer peer = new RawPeer(at);
        assertThat(peer.handshake(SECRET, "refusing", codec(SMALL).buildIdentity(), 0, 1))
                .isEqualTo(new Handshake.Welcome(1));
        return peer;
    }

    /** {@code messages} as frames (a length, then the bytes), one after the other. */
    private static byte[] frames(List<Object> messages) throws Exception {
        MessageCodec sender = codec(DecodingLimits.DEFAULTS);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (Object m : messages) {
            byte[] frame = sender.encode(m, "place p1");
            out.writeInt(frame.length);
            out.write(frame);
        }
        return bytes.toByteArray();
    }

    /** Waits until the place's I/O thread has handled everything it read before now. */
    private void ioThreadDone() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        p1.onIoThread(done::countDown);
        assertThat(done.await(20, TimeUnit.SECONDS)).as("the I/O thread ran a task within 20 s").isTrue();
    }

    @Test
    void noFrameAfterARefusedOneIsDelivered() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        List<Object> sent = new ArrayList<>();
        sent.add(new Note(1));
        sent.add(new Many(new ArrayList<>(Collections.nCopies(11, 0))));      // over maxElements at p1
        for (int i = 2; i <= 100; i++) {
            sent.add(new Note(i));
        }
        try (RawPeer peer = placeAndPeer(inbox)) {
            peer.sendRaw(frames(sent));                           // one write: the place reads them together
            assertThat(inbox.lost.poll(20, TimeUnit.SECONDS)).as("p1 lost p0 within 20 s")
                    .startsWith("0: ").contains("DecodingLimits.maxElements");
            ioThreadDone();
            assertThat(peer.closedByPlace()).isTrue();
        }
        assertThat(inbox.received).extracting(m -> m[1]).containsExactly(new Note(1));
    }

    @Test
    void theRefusalNamesTheMessageItsRecipientTheSenderTheLinkAndTheLimit() throws Exception {
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        long sink = GlobalId.of(0, 1, 5).bits();
        Object over = new Frames.Deliver(sink, -1, new Many(new ArrayList<>(Collections.nCopies(11, 0))));
        try (RawPeer peer = placeAndPeer(inbox)) {
            peer.sendRaw(frames(List.of(over)));
            assertThat(inbox.lost.poll(20, TimeUnit.SECONDS)).isEqualTo("0: a message of the program over a decoding"
                    + " limit of place p1: a " + Many.class.getName() + " for actor 0:1:5, sent by place p0 on its"
                    + " link with place p1: a frame's ArrayList has 11 elements; the limit is 10"
                    + " (DecodingLimits.maxElements)");
            assertThat(peer.closedByPlace()).isTrue();
        }
        assertThat(inbox.received).isEmpty();
    }
}
