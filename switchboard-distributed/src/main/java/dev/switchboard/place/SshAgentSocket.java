package dev.switchboard.place;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * The SSH agent ({@code ssh-agent}, {@code $SSH_AUTH_SOCK}) as MINA SSHD's client uses it, over a Unix domain socket
 * of the JDK. {@link AbstractAgentProxy} speaks the agent protocol (list the keys, sign with one); this class only
 * carries its messages: each request is a prepared {@code [uint32 length][payload]}, each answer one such frame.
 * (MINA's own Unix agent client needs the native Apache Portable Runtime; this needs nothing.)
 */
final class SshAgentSocket extends AbstractAgentProxy {
    private static final System.Logger LOG = System.getLogger(SshAgentSocket.class.getName());
    /** An agent's answer is a list of keys or a signature: far below this. */
    private static final int MAX_ANSWER = 256 * 1024;

    private final SocketChannel channel;

    private SshAgentSocket(Path socket) throws IOException {
        super(null);
        this.channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            channel.close();
            throw new IOException("the SSH agent at " + socket + " cannot be reached: " + e.getMessage(), e);
        }
    }

    /** A factory of clients of the agent at {@code socket}: one connection per SSH session's authentication. */
    static SshAgentFactory factory(Path socket) {
        return new SshAgentFactory() {
            @Override
            public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
                return List.of();                     // the places forward no agent
            }

            /** The agent, or none (null: MINA then offers the key files alone) if its socket does not answer. */
            @Override
            public SshAgent createClient(Session session, FactoryManager manager) {
                try {
                    return new SshAgentSocket(socket);
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, () -> e.getMessage() + "; its keys are not offered");
                    return null;
                }
            }

            @Override
            public SshAgentServer createServer(ConnectionService service) {
                throw new UnsupportedOperationException("the places forward no agent");
            }
        };
    }

    @Override
    protected synchronized Buffer request(Buffer request) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(request.array(), request.rpos(), request.available());
        while (out.hasRemaining()) {
            channel.write(out);
        }
        ByteBuffer length = read(4);
        int n = length.getInt();
        if (n < 1 || n > MAX_ANSWER) {
            throw new IOException("the SSH agent answered with a frame of " + (n & 0xffffffffL) + " bytes");
        }
        return new ByteArrayBuffer(read(n).array());
    }

    private ByteBuffer read(int n) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(n);
        while (in.hasRemaining()) {
            if (channel.read(in) < 0) {
                throw new IOException("the SSH agent closed the connection");
            }
        }
        return in.flip();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        super.close();
        channel.close();
    }
}
