package dev.switchboard.place;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.util.function.Supplier;

/**
 * One connection of a {@link Transport}, its handshake done: the frames of the program from place {@code peer}.
 *
 * <p>Implementation notes. It runs on the transport's I/O thread (Netty's event loop), the failure detector's
 * {@link #declareFailed} too. Its monitor is the one a sender waiting for a full outbound buffer waits on
 * ({@code Transport.awaitWritable}): it notifies it when the buffer drains and when the connection closes. A frame
 * it cannot decode, or one over a limit, is refused: the peer is told why, the refusal logged, and the connection
 * closed; a Closing frame ends the connection as the peer says. Each end is a loss the {@link Transport} handles
 * ({@link Transport#lost}).
 */
final class Connection extends SimpleChannelInboundHandler<ByteBuf> {
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());

    private final Transport transport;
    private final int peer;
    /**
     * Set on the I/O thread when this side ends the connection (a refusal, a Closing heard, a failure): the
     * frames its decoder still holds are then neither decoded nor delivered, so what was delivered from the link
     * stays a prefix of what was sent on it.
     */
    private boolean ending;

    Connection(Transport transport, int peer) {
        this.transport = transport;
        this.peer = peer;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        if (ending) {
            return;                                   // past the end this side made: dropped unread
        }
        Object message;
        try {
            message = transport.codec().decode(frame);
        } catch (BoundedInput.OverLimit e) {
            refuse(ctx, overLimit(frame, e));
            return;
        } catch (RuntimeException | LinkageError e) {
            refuse(ctx, undecodable(e));
            return;
        }
        transport.heard(peer, message);
        switch (message) {
            case Frames.Heartbeat h -> {
                // heard: that is all it is for
            }
            case Frames.Ping ping -> write(ctx, new Frames.Pong(ping.id()));
            case Frames.Pong pong -> transport.pings().answered(pong.id());
            case Frames.Closing c -> {
                ending = true;
                lose(ctx, c.reason().equals(Transport.SHUTTING_DOWN) ? "it left: it shut down"
                        : c.reason().equals(JvmExitNotice.JVM_ENDING) ? JvmExitNotice.JVM_ENDED
                        : c.reason().startsWith(Transport.GAVE_UP_JOINING) ? c.reason()
                        : "place " + transport.name(peer) + " closed the connection: " + c.reason());
                ctx.close();
            }
            default -> transport.receiver().received(peer, message);
        }
    }

    /**
     * Why a frame that could not be decoded is refused. A class of the message that this place cannot load or
     * initialize (its static initializer threw; Kryo wraps the error) is the program's fault, not the frame's: it is
     * named, with its cause.
     */
    private static String undecodable(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof LinkageError linkage) {
                return "a message whose class this place cannot load or initialize: " + linkage
                        + (linkage.getCause() != null
                        ? " (caused by " + Transport.firstLine(String.valueOf(linkage.getCause())) + ")" : "");
            }
        }
        return "a frame that is not a message of this program: " + Transport.firstLine(e.getMessage());
    }

    /**
     * Why a message of the program over a decoding limit is refused: the link, the sending place, the message's
     * class and its recipient as far as the frame's head tells, and the limit.
     */
    private String overLimit(ByteBuf frame, BoundedInput.OverLimit e) {
        MessageCodec.Head head = transport.codec().head(frame);
        Class<?> type = head.message() != null ? head.message() : head.frame();
        String what = (type == null ? "a message" : "a " + type.getName())
                + (head.to() != null ? " for " + transport.receiver().recipient(head.to()) : "");
        return "a message of the program over a decoding limit of " + transport.here() + ": " + what
                + ", sent by place " + transport.name(peer) + " on its link with " + transport.here() + ": "
                + Transport.firstLine(e.getMessage());
    }

    private void refuse(ChannelHandlerContext ctx, String reason) {
        ending = true;
        LOG.log(System.Logger.Level.WARNING, transport.here() + " closes its connection with place "
                + transport.name(peer) + ": " + HandshakeHandler.printable(reason));
        write(ctx, new Frames.Closing(reason));
        ctx.close();
        lose(ctx, reason);
    }

    /** The failure detector found the peer silent for too long: it is lost, and told so if it still listens. */
    void declareFailed(ChannelHandlerContext ctx, String why) {
        ending = true;
        LOG.log(System.Logger.Level.WARNING, transport.here() + " declares place " + transport.name(peer)
                + " failed: " + why);
        write(ctx, new Frames.Closing(transport.here() + " declared this place failed: " + why));
        lose(ctx, why);
        ctx.close();
    }

    private void write(ChannelHandlerContext ctx, Object message) {
        Supplier<String> to = () -> transport.destination(peer);
        MessageCodec codec = transport.codec();
        ctx.writeAndFlush(codec.frame(message, to, codec.limits().maxFrameBytes(), ctx.alloc()));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        synchronized (this) {
            notifyAll();                          // senders waiting for the buffer to drain, or for the close
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        lose(ctx, Transport.CLOSED_WITHOUT_A_WORD);
        synchronized (this) {
            notifyAll();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof io.netty.handler.codec.TooLongFrameException) {
            refuse(ctx, "a frame longer than " + transport.codec().limits().maxFrameBytes() + " bytes (DecodingLimits"
                    + ".maxFrameBytes)");
            return;
        }
        // a reset or a broken pipe says no more than a close does
        ending = true;
        lose(ctx, cause instanceof java.io.IOException ? Transport.CLOSED_WITHOUT_A_WORD : cause.toString());
        ctx.close();
    }

    private void lose(ChannelHandlerContext ctx, String why) {
        transport.lost(peer, ctx.channel(), why);
    }
}
