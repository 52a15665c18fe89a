package dev.switchboard.place;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The frames of a connection's handshake, in a fixed format of their own, read without the general codec: the
 * connecting place says who it is ({@link Hello}); the accepting place proves it knows the program's secret and
 * challenges the connecting one ({@link Challenge}); that one proves it too ({@link Proof}); the accepting place
 * welcomes it ({@link Welcome}), or refuses it at any step with the reason ({@link Refused}) and closes. Without a
 * secret (TLS, whose certificates prove who each side is, or the unauthenticated mode) there is no challenge: a
 * {@link Hello} is answered by a {@link Welcome}.
 *
 * <h2>The format</h2>
 * A frame is a 2-byte length (of what follows, at most {@value #MAX_FRAME_BYTES}), a type byte, and the fields,
 * integers big-endian:
 * <pre>
 * Hello     1  magic "SWBP", version u8, mode u8, program (u8 length, UTF-8), build 32 bytes, place u16,
 *              nonce 32 bytes
 * Challenge 2  place u16, nonce 32 bytes, proof 32 bytes
 * Proof     3  proof 32 bytes
 * Welcome   4  place u16
 * Refused   5  reason (u16 length, UTF-8)
 * </pre>
 * A frame whose length does not match its type's fields exactly is malformed, and refused.
 *
 * <h2>The proofs</h2>
 * Each is HMAC-SHA256 under the program's secret over the role ("acceptor" or "connector"), the program, the
 * build, both places' indexes and both nonces, each fresh from a {@code SecureRandom} per connection: a proof
 * seen on one connection is worth nothing on another, and neither side can reflect the other's proof back (the
 * roles differ). Proofs are compared in constant time. The secret authenticates the peer, not the bytes after the
 * handshake: integrity and secrecy of the traffic need TLS.
 */
final class Handshake {
    /** The most bytes of a handshake frame after its length. */
    static final int MAX_FRAME_BYTES = 1024;
    /** The bytes of a nonce, a proof and a build identity. */
    static final int NONCE_BYTES = 32;
    static final int PROOF_BYTES = 32;
    static final int BUILD_BYTES = 32;
    /** The version of this handshake. */
    static final int VERSION = 1;
    private static final byte[] MAGIC = {'S', 'W', 'B', 'P'};
    private static final int MAX_PROGRAM_BYTES = 255;
    private static final int MAX_REASON_BYTES = MAX_FRAME_BYTES - 3;

    private Handshake() {
    }

    /** A handshake frame. */
    sealed interface Frame permits Hello, Challenge, Proof, Welcome, Refused {
    }

    /** From the connecting place: the mode it authenticates in, the program and its build, its index, a nonce. */
    record Hello(Authentication.Mode mode, String program, byte[] build, int place, byte[] nonce) implements Frame {
    }

    /** From the accepting place, with a secret: its index, its nonce, and its proof. */
    record Challenge(int place, byte[] nonce, byte[] proof) implements Frame {
    }

    /** From the connecting place: its proof. */
    record Proof(byte[] proof) implements Frame {
    }

    /** From the accepting place: its index; the connection now carries the program's frames. */
    record Welcome(int place) implements Frame {
    }

    /** Either way, before the sender closes the connection: why. */
    record Refused(String reason) implements Frame {
    }

    /** A frame that is not a handshake frame of this version. */
    static final class MalformedException extends Exception {
        MalformedException(String message) {
            super(message, null, false, false);
        }
    }

    /** {@code frame} with its length, in a buffer from {@code allocator}. */
    static ByteBuf encode(Frame frame, ByteBufAllocator allocator) {
        ByteBuf b = allocator.buffer(64);
        b.writeShort(0);                                   // the length, set below
        switch (frame) {
            case Hello h -> {
                b.writeByte(1).writeBytes(MAGIC).writeByte(VERSION).writeByte(h.mode().ordinal());
                byte[] program = h.program().getBytes(StandardCharsets.UTF_8);
                if (program.length > MAX_PROGRAM_BYTES) {
                    throw new IllegalArgumentException("a program id is at most " + MAX_PROGRAM_BYTES
                            + " bytes: " + h.program());
                }
                b.writeByte(program.length).writeBytes(program);
                b.writeBytes(exactly(h.build(), BUILD_BYTES)).writeShort(h.place())
                        .writeBytes(exactly(h.nonce(), NONCE_BYTES));
            }
            case Challenge c -> b.writeByte(2).writeShort(c.place()).writeBytes(exactly(c.nonce(), NONCE_BYTES))
                    .writeBytes(exactly(c.proof(), PROOF_BYTES));
            case Proof p -> b.writeByte(3).writeBytes(exactly(p.proof(), PROOF_BYTES));
            case Welcome w -> b.writeByte(4).writeShort(w.place());
            case Refused r -> {
                byte[] reason = r.reason().getBytes(StandardCharsets.UTF_8);
                int length = Math.min(reason.length, MAX_REASON_BYTES);
                b.writeByte(5).writeShort(length).writeBytes(reason, 0, length);
            }
        }
        b.setShort(0, b.writerIndex() - 2);
        return b;
    }

    private static byte[] exactly(byte[] bytes, int length) {
        if (bytes.length != length) {
            throw new IllegalArgumentException(length + " bytes expected, not " + bytes.length);
        }
        return bytes;
    }

    /**
     * The frame in {@code frame}'s readable bytes (its length already taken off).
     *
     * @throws MalformedException if they are not exactly one handshake frame of this version
     */
    static Frame decode(ByteBuf frame) throws MalformedException {
        int size = frame.readableBytes();
        if (size < 1) {
            throw new MalformedException("an empty handshake frame");
        }
        int type = frame.readUnsignedByte();
        Frame f = switch (type) {
            case 1 -> {
                need(frame, 4 + 1 + 1 + 1, "Hello");
                byte[] magic = bytes(frame, 4);
                if (!MessageDigest.isEqual(magic, MAGIC)) {
                    throw new MalformedException("not a Switchboard place (the first bytes are not its handshake)");
                }
                int version = frame.readUnsignedByte();
                if (version != VERSION) {
                    throw new MalformedException("handshake version " + version + "; this place speaks " + VERSION);
                }
                int mode = frame.readUnsignedByte();
                if (mode >= Authentication.Mode.values().length) {
                    throw new MalformedException("an unknown authentication mode " + mode);
                }
                int programBytes = frame.readUnsignedByte();
                need(frame, programBytes + BUILD_BYTES + 2 + NONCE_BYTES, "Hello");
                String program = frame.readCharSequence(programBytes, StandardCharsets.UTF_8).toString();
                yield new Hello(Authentication.Mode.values()[mode], program, bytes(frame, BUILD_BYTES),
                        frame.readUnsignedShort(), bytes(frame, NONCE_BYTES));
            }
            case 2 -> {
                need(frame, 2 + NONCE_BYTES + PROOF_BYTES, "Challenge");
                yield new Challenge(frame.readUnsignedShort(), bytes(frame, NONCE_BYTES), bytes(frame, PROOF_BYTES));
            }
            case 3 -> {
                need(frame, PROOF_BYTES, "Proof");
                yield new Proof(bytes(frame, PROOF_BYTES));
            }
            case 4 -> {
                need(frame, 2, "Welcome");
                yield new Welcome(frame.readUnsignedShort());
            }
            case 5 -> {
                need(frame, 2, "Refused");
                int length = frame.readUnsignedShort();
                need(frame, length, "Refused");
                yield new Refused(frame.readCharSequence(length, StandardCharsets.UTF_8).toString());
            }
            default -> throw new MalformedException("an unknown handshake frame type " + type);
        };
        if (frame.isReadable()) {
            throw new MalformedException("a handshake frame with " + frame.readableBytes() + " bytes too many");
        }
        return f;
    }

    private static void need(ByteBuf frame, int bytes, String what) throws MalformedException {
        if (frame.readableBytes() < bytes) {
            throw new MalformedException("a " + what + " frame cut short");
        }
    }

    private static byte[] bytes(ByteBuf frame, int length) {
        byte[] b = new byte[length];
        frame.readBytes(b);
        return b;
    }

    /** The proof of {@code role} ("acceptor" or "connector") for a connection, under {@code secret}. */
    static byte[] proof(byte[] secret, String role, String program, byte[] build, int connector, int acceptor,
                        byte[] connectorNonce, byte[] acceptorNonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(("switchboard-place-v" + VERSION + "/" + role + "/").getBytes(StandardCharsets.UTF_8));
            byte[] p = program.getBytes(StandardCharsets.UTF_8);
            mac.update((byte) p.length);
            mac.update(p);
            mac.update(build);
            mac.update(new byte[] {(byte) (connector >> 8), (byte) connector, (byte) (acceptor >> 8),
                    (byte) acceptor});
            mac.update(connectorNonce);
            mac.update(acceptorNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HmacSHA256", e);
        }
    }

    /** Whether two proofs are equal, in time independent of where they differ. */
    static boolean sameProof(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /** A build identity, short, for messages. */
    static String shortly(byte[] build) {
        return HexFormat.of().formatHex(build, 0, 6);
    }
}
