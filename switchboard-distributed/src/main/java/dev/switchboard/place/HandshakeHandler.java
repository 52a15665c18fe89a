package dev.switchboard.place;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * One connection's {@link Handshake}, on the transport's I/O thread: nothing the general codec reads reaches this
 * place before it ends. When it succeeds, the connection's pipeline is switched to the program's frames (a 4-byte
 * length, then the codec's bytes) and the {@link Transport} is told which place it connects; when it fails, the
 * peer is told why (if it got as far as a well-formed frame), the connection is closed, and the refusal logged.
 *
 * <p>Implementation notes. The pipeline while it runs: [TLS], flush consolidation, {@link #FRAMES} (a length-field
 * decoder bounded at {@link Handshake#MAX_FRAME_BYTES}), this. A deadline of
 * {@code TransportSettings.handshakeTimeout()} from the connection's start closes a peer that sends nothing, or
 * dribbles; an accepted connection counts as pending until it ends or succeeds, and one over
 * {@code TransportSettings.maxPendingHandshakes()} is closed at once. The switch adds the program's frame decoder and
 * the {@link Connection} after this handler before it removes this and the handshake's decoder, which hands
 * any bytes it holds past the handshake's last frame on to the new decoder.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    /** The name of the handshake's frame decoder in the pipeline. */
    static final String FRAMES = "handshake-frames";
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());

    private final Transport transport;
    /** The place this side connected to, or -1 on the accepting side. */
    private final int expected;
    private final byte[] nonce = Authentication.nonce();
    /** Accepting, HMAC: the peer's Hello, once answered with a Challenge. */
    private Handshake.Hello hello;
    /** Connecting, HMAC: set once the peer's Challenge is verified. */
    private boolean challenged;
    private boolean pending;
    private boolean ended;
    /** Accepting: the place the peer's Hello said it was (not proved), or -1 before one. */
    private int claimed = -1;
    /** Whether a handshake frame has come (before one, a close is a busy or restarting place: dialed again). */
    private boolean heard;
    private ScheduledFuture<?> deadline;

    HandshakeHandler(Transport transport, int expected) {
        this.transport = transport;
        this.expected = expected;
    }

    /** A new connection's handlers: [TLS], flush consolidation, the handshake's decoder and this. */
    static void install(ChannelPipeline p, Transport transport, int expected) {
        SslHandler ssl = transport.authentication().sslHandler(p.channel().alloc(), expected < 0);
        if (ssl != null) {
            ssl.setHandshakeTimeoutMillis(transport.settings().handshakeTimeout().toMillis());
            p.addLast("tls", ssl);
        }
        p.addLast("flush", new io.netty.handler.flush.FlushConsolidationHandler(256, true));
        p.addLast(FRAMES, new LengthFieldBasedFrameDecoder(Handshake.MAX_FRAME_BYTES + 2, 0, 2, 0, 2));
        p.addLast("handshake", new HandshakeHandler(transport, expected));
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (expected < 0) {
            if (!transport.admitPending()) {
                LOG.log(System.Logger.Level.WARNING, () -> transport.here() + " closes a connection from "
                        + address(ctx) + " at once: " + transport.maxPendingHandshakes()
                        + " connections are in their handshake already (TransportSettings.maxPendingHandshakes)");
                ended = true;
                ctx.close();
                return;
            }
            pending = true;
        }
        long timeout = transport.settings().handshakeTimeout().toMillis();
        deadline = ctx.executor().schedule(() -> fail(ctx, "the handshake did not end within " + timeout
                + " ms"), timeout, TimeUnit.MILLISECONDS);
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl == null) {
            start(ctx);
        } else {
            ssl.handshakeFuture().addListener(f -> {
                if (f.isSuccess()) {
                    start(ctx);
                } else if (expected >= 0 && !heard && !(f.cause() instanceof javax.net.ssl.SSLException)
                        && (!ctx.channel().isActive() || f.cause() instanceof java.io.IOException)) {
                    // closed or reset before a word, not refused by TLS: channelInactive dials again
                    ctx.close();
                } else {
                    fail(ctx, "the TLS handshake failed: " + f.cause());
                }
            });
        }
    }

    /** Once the connection is up (and TLS agreed, if any): the connecting side says Hello. */
    private void start(ChannelHandlerContext ctx) {
        if (expected >= 0 && !ended) {
            write(ctx, new Handshake.Hello(transport.authentication().mode(), transport.program(),
                    transport.build(), transport.self(), nonce));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        heard = true;
        ByteBuf bytes = (ByteBuf) msg;
        if (ended) {
            bytes.release();                             // past a refusal or a failure: dropped unread
            return;
        }
        Handshake.Frame frame;
        try {
            frame = Handshake.decode(bytes);
        } catch (Handshake.MalformedException e) {
            refuse(ctx, e.getMessage());
            return;
        } finally {
            bytes.release();
        }
        if (frame instanceof Handshake.Refused r) {
            fail(ctx, (expected >= 0 ? "place " + transport.name(expected) : claimed >= 0 ? "place "
                    + transport.name(claimed) : "the peer") + " refused the connection: " + r.reason());
        } else if (expected < 0) {
            accepting(ctx, frame);
        } else {
            connecting(ctx, frame);
        }
    }

    private void accepting(ChannelHandlerContext ctx, Handshake.Frame frame) {
        Authentication auth = transport.authentication();
        if (hello == null) {
            if (!(frame instanceof Handshake.Hello h)) {
                refuse(ctx, "the first frame must be a Hello, not a " + frame.getClass().getSimpleName());
                return;
            }
            claimed = h.place() >= 0 && h.place() < transport.places() && h.place() != transport.self()
                    ? h.place() : -1;
            String wrong = checkHello(ctx, h);
            if (wrong != null) {
                refuse(ctx, wrong);
            } else if (auth.mode() == Authentication.Mode.HMAC) {
                hello = h;
                write(ctx, new Handshake.Challenge(transport.self(), nonce, Handshake.proof(auth.secret(),
                        "acceptor", transport.program(), transport.build(), h.place(), transport.self(), h.nonce(),
                        nonce)));
            } else {
                welcome(ctx, h.place());
            }
        } else if (frame instanceof Handshake.Proof p) {
            byte[] expectedProof = Handshake.proof(auth.secret(), "connector", transport.program(),
                    transport.build(), hello.place(), transport.self(), hello.nonce(), nonce);
            if (Handshake.sameProof(expectedProof, p.proof())) {
                welcome(ctx, hello.place());
            } else {
                refuse(ctx, "it did not prove that it knows the program's secret" + SECRETS_DIFFER);
            }
        } else {
            refuse(ctx, "expected a Proof, got a " + frame.getClass().getSimpleName());
        }
    }

    /** What is wrong with a Hello, or null. */
    private String checkHello(ChannelHandlerContext ctx, Handshake.Hello h) {
        Authentication.Mode mode = transport.authentication().mode();
        if (h.mode() != mode) {
            return "it authenticates with " + h.mode() + ", this place with " + mode;
        }
        String peer = h.place() >= 0 && h.place() < transport.places() ? "place " + transport.name(h.place())
                : "the place of index " + h.place();
        String self = "place " + transport.name(transport.self());
        if (!h.program().equals(transport.program())) {
            return peer + " runs program " + h.program() + ", " + self + " another"      // its id is not told
                    + (transport.program().startsWith("config-") ? " (a program's id is made from its configuration"
                    + " file: every place must be given the same file, byte for byte)" : "");
        }
        if (!Handshake.sameProof(h.build(), transport.build())) {
            return peer + " runs another build of the program (build " + Handshake.shortly(h.build()) + ", " + self
                    + "'s is " + Handshake.shortly(transport.build()) + "): their message classes differ";
        }
        if (h.place() >= transport.self()) {
            return "place index " + h.place() + " does not connect to place " + transport.name(transport.self())
                    + " (index " + transport.self() + "): only places below it do";
        }
        if (mode == Authentication.Mode.TLS) {
            return certificateMismatch(ctx, h.place());
        }
        return null;
    }

    /** With TLS: why the peer's certificate is not for {@code place}, or null if it is. */
    private String certificateMismatch(ChannelHandlerContext ctx, int place) {
        try {
            List<String> names = Authentication.certificateNames(
                    ctx.pipeline().get(SslHandler.class).engine().getSession());
            String name = transport.name(place);
            return names.contains(name) ? null : "its certificate is for " + names + ", not for place " + name;
        } catch (SSLPeerUnverifiedException e) {
            return "it presented no certificate";
        }
    }

    private void connecting(ChannelHandlerContext ctx, Handshake.Frame frame) {
        Authentication auth = transport.authentication();
        String name = transport.name(expected);
        switch (frame) {
            case Handshake.Challenge c when auth.mode() == Authentication.Mode.HMAC && !challenged -> {
                byte[] expectedProof = Handshake.proof(auth.secret(), "acceptor", transport.program(),
                        transport.build(), transport.self(), expected, nonce, c.nonce());
                if (c.place() != expected) {
                    refuse(ctx, "this place connected to place " + name + ", not place index " + c.place());
                } else if (!Handshake.sameProof(expectedProof, c.proof())) {
                    refuse(ctx, "the place at " + address(ctx) + " did not prove that it knows the"
                            + " program's secret: it is not place " + name + " of this program" + SECRETS_DIFFER);
                } else {
                    challenged = true;
                    write(ctx, new Handshake.Proof(Handshake.proof(auth.secret(), "connector", transport.program(),
                            transport.build(), transport.self(), expected, nonce, c.nonce())));
                }
            }
            case Handshake.Welcome w when auth.mode() != Authentication.Mode.HMAC || challenged -> {
                String wrong = w.place() != expected ? "this place connected to place " + name
                        + ", not place index " + w.place()
                        : auth.mode() == Authentication.Mode.TLS ? certificateMismatch(ctx, expected) : null;
                if (wrong != null) {
                    refuseWelcomed(ctx, wrong);
                } else if (transport.established(ctx.channel(), expected)) {
                    switchToFrames(ctx, expected);
                } else {
                    refuse(ctx, "place " + name + " is connected already");
                }
            }
            default -> refuse(ctx, "an unexpected " + frame.getClass().getSimpleName() + " from place " + name);
        }
    }

    /** Accepting: the peer is {@code place}, if no other connection is already. */
    private void welcome(ChannelHandlerContext ctx, int place) {
        if (transport.established(ctx.channel(), place)) {
            write(ctx, new Handshake.Welcome(transport.self()));   // before any frame of the program
            switchToFrames(ctx, place);
        } else {
            refuse(ctx, "place " + transport.name(place) + " is connected already");
        }
    }

    private void switchToFrames(ChannelHandlerContext ctx, int place) {
        end();
        ChannelPipeline p = ctx.pipeline();
        p.addAfter(ctx.name(), "frames", new LengthFieldBasedFrameDecoder(
                transport.codec().limits().maxFrameBytes() + 4, 0, 4, 0, 4));      // the length field counts
        p.addAfter("frames", "connection", transport.connection(place));
        p.remove(this);
        p.remove(FRAMES);                                  // hands the bytes it holds on to "frames"
    }

    /** With HMAC, neither side can tell which of two places holds the wrong secret: both are named. */
    static final String SECRETS_DIFFER = ", or the two places were given different secrets (every place"
            + " must read the same one)";

    /** Refuses the peer: tells it why, closes, logs. */
    private void refuse(ChannelHandlerContext ctx, String reason) {
        if (ended) {
            return;
        }
        ctx.writeAndFlush(Handshake.encode(new Handshake.Refused(reason), ctx.alloc()))
                .addListener(ChannelFutureListener.CLOSE);
        fail(ctx, reason);
    }

    /**
     * Refuses a peer that has welcomed this place: it reads the program's frames already, so a {@code Closing}
     * frame tells it why (a handshake's {@code Refused} would reach it as a frame it cannot read).
     */
    private void refuseWelcomed(ChannelHandlerContext ctx, String reason) {
        if (ended) {
            return;
        }
        MessageCodec codec = transport.codec();
        ctx.writeAndFlush(codec.frame(new Frames.Closing(transport.here() + " refused the connection: " + reason),
                () -> "place " + transport.name(expected), codec.limits().maxFrameBytes(), ctx.alloc()))
                .addListener(ChannelFutureListener.CLOSE);
        fail(ctx, reason);
    }

    /** Ends the handshake as failed: closes, logs, and a connecting side's {@code connect} hears why. */
    private void fail(ChannelHandlerContext ctx, String reason) {
        if (ended) {
            return;
        }
        end();
        String from = expected >= 0 ? "to place " + transport.name(expected) + " at " + address(ctx)
                : "from " + address(ctx) + (claimed >= 0 ? ", which said it was place " + transport.name(claimed)
                + "," : "");
        LOG.log(System.Logger.Level.WARNING, () -> transport.here() + " closes a connection " + from
                + " in its handshake: " + printable(reason));
        if (expected >= 0) {
            transport.joining().handshakeFailed(expected, reason);
        } else {
            transport.joining().acceptedHandshakeFailed("a connection " + from + " failed its handshake: "
                    + printable(reason));
        }
        ctx.close();
    }

    private void end() {
        ended = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (pending) {
            pending = false;
            transport.releasePending();
        }
    }

    /** {@code text} (which may hold what an unauthenticated peer sent) with control characters shown as '?'. */
    static String printable(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return sb.toString();
    }

    private static void write(ChannelHandlerContext ctx, Handshake.Frame frame) {
        ctx.writeAndFlush(Handshake.encode(frame, ctx.alloc()));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (expected >= 0 && !heard && !ended) {
            end();                                       // closed before a word: the place may be full of handshakes
            transport.joining().redial(expected);
        } else {
            fail(ctx, "the connection closed during the handshake");
        }
        ctx.fireChannelInactive();
    }

    /** The peer's address as {@code /host-address:port}, whichever transport made the channel. */
    static String address(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress a && a.getAddress() != null
                ? "/" + a.getAddress().getHostAddress() + ":" + a.getPort()
                : String.valueOf(ctx.channel().remoteAddress());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (expected >= 0 && !heard && !ended && cause instanceof java.io.IOException
                && !(cause instanceof javax.net.ssl.SSLException)) {
            transport.joining().noteBeforeAWord(expected, cause.toString());
            ctx.close();                                 // reset before a word: dialed again on close
            return;
        }
        Throwable tls = cause instanceof io.netty.handler.codec.DecoderException d ? d.getCause() : cause;
        fail(ctx, tls instanceof javax.net.ssl.SSLException ? "the TLS handshake failed: " + tls
                : "the connection failed: " + cause);
    }
}
