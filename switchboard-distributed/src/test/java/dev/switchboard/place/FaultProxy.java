package dev.switchboard.place;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy that injects faults between two places, for tests on a machine without {@code netem}: it forwards
 * every connection made to it to the target, both ways, one thread per direction, and on command delays what it
 * forwards, stalls (holds every byte, the connection open), drops (reads and discards every byte, as a link that
 * loses everything), or cuts (closes both sides).
 */
final class FaultProxy implements AutoCloseable {
    /** What the proxy does with the bytes it reads. */
    enum Mode { FORWARD, STALL, DROP }

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.FORWARD;
    private volatile long delayNanos;

    FaultProxy(InetSocketAddress target) throws IOException {
        this(target, InetAddress.getLoopbackAddress());
    }

    /** A proxy that listens on a free port of {@code at}. */
    FaultProxy(InetSocketAddress target, InetAddress at) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, at);
        Thread accept = new Thread(this::accept, "fault-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** Where to connect to reach the target through the proxy. */
    InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress().getHostAddress(), server.getLocalPort());
    }

    /** Forwards each chunk it reads {@code millis} later (0: at once). */
    void delay(long millis) {
        delayNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** From now on, holds what it reads: nothing reaches either side, and the connections stay open. */
    void stall() {
        mode = Mode.STALL;
    }

    /** From now on, reads what either side sends and discards it. */
    void drop() {
        mode = Mode.DROP;
    }

    /** Closes every connection through it, both sides, as a cut cable would. */
    void cut() {
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0);                    // a reset, not a polite close
                s.close();
            } catch (IOException e) {
                // closed already
            }
        }
    }

    private void accept() {
        try {
            while (!server.isClosed()) {
                Socket from = server.accept();
                Socket to;
                try {
                    to = new Socket(target.getAddress(), target.getPort());
                } catch (IOException notListeningYet) {
                    from.close();                          // as the target itself would refuse: the caller dials again
                    continue;
                }
                from.setTcpNoDelay(true);
                to.setTcpNoDelay(true);
                sockets.add(from);
                sockets.add(to);
                pump(from, to);
                pump(to, from);
            }
        } catch (IOException e) {
            // the proxy is closed
        }
    }

    private void pump(Socket in, Socket out) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream i = in.getInputStream(); OutputStream o = out.getOutputStream()) {
                for (int n; (n = i.read(buffer)) >= 0; ) {
                    while (mode == Mode.STALL) {
                        Thread.sleep(10);                      // holding the bytes: the fault being injected
                    }
                    if (mode == Mode.DROP) {
                        continue;
                    }
                    long delay = delayNanos;
                    if (delay > 0) {
                        TimeUnit.NANOSECONDS.sleep(delay);     // the link's latency: the fault being injected
                    }
                    o.write(buffer, 0, n);
                    o.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side closed, or the proxy was cut
            } finally {
                try {
                    in.close();
                    out.close();
                } catch (IOException e) {
                    // closed already
                }
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        cut();
    }
}
