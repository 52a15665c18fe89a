package dev.switchboard.place;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A peer of a place written by hand over a plain socket, for the tests an attacker or a broken place would run:
 * it sends handshake frames it makes up, and, once through a handshake, frames of any bytes.
 */
final class RawPeer implements AutoCloseable {
    final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    final byte[] nonce = Authentication.nonce();

    RawPeer(InetSocketAddress at) throws IOException {
        socket = new Socket(at.getAddress(), at.getPort());
        socket.setSoTimeout(20_000);
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    /** Sends a handshake frame. */
    void send(Handshake.Frame frame) throws IOException {
        ByteBuf b = Handshake.encode(frame, ByteBufAllocator.DEFAULT);
        try {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            out.write(bytes);
            out.flush();
        } finally {
            b.release();
        }
    }

    /** The next handshake frame from the place. */
    Handshake.Frame receive() throws IOException, Handshake.MalformedException {
        byte[] frame = new byte[in.readUnsignedShort()];
        in.readFully(frame);
        return Handshake.decode(Unpooled.wrappedBuffer(frame));
    }

    /** Sends {@code bytes} as they are. */
    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends a program frame: a 4-byte length and {@code bytes}. */
    void sendFrame(byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }

    /**
     * Runs the handshake of place {@code claimed} with the place listening at this socket, place {@code acceptor},
     * as a place that knows {@code secret} would; returns the place's last frame (a Welcome, or why it refused).
     */
    Handshake.Frame handshake(byte[] secret, String program, byte[] build, int claimed, int acceptor)
            throws IOException, Handshake.MalformedException {
        send(new Handshake.Hello(Authentication.Mode.HMAC, program, build, claimed, nonce));
        Handshake.Frame f = receive();
        if (!(f instanceof Handshake.Challenge c)) {
            return f;
        }
        send(new Handshake.Proof(Handshake.proof(secret, "connector", program, build, claimed, acceptor, nonce,
                c.nonce())));
        return receive();
    }

    /** Reads what the place sends until it closes the connection; true if it did within 20 s. */
    boolean closedByPlace() throws IOException {
        try {
            while (in.read() >= 0) {
                // a Closing frame, or a Pong: read past it
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;                                   // reset: closed too
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
