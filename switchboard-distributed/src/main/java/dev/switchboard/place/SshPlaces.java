package dev.switchboard.place;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedFactory;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.common.signature.Signature;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;

/**
 * Place 0's SSH sessions to the hosts of the other places ({@link SshSettings}), with MINA SSHD: for each host, one
 * session, logged in with a key; a check that the host has a Java the places can run on; the class path staged there
 * ({@link ClassPathStaging}); then one exec channel per place, running {@link PlaceMain} with the staged jars. The
 * channel is the place's standard input and output, so the launcher drives a remote place as it drives a local
 * one ({@link PlaceLauncher}), and a place whose channel ends (place 0 ended, or the connection is cut) halts.
 *
 * <p>Each way this can fail says so, naming the place and the host: a host that cannot be reached, a host key that
 * is not in {@code known_hosts} or differs from it, keys the host refuses, no Java (or one older than 21) there,
 * a port a place cannot listen on (reported by the place when it starts).
 */
final class SshPlaces implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SshPlaces.class.getName());
    private static final Pattern VERSION = Pattern.compile("version \"(1\\.)?(\\d+)");

    private final SshSettings settings;
    private final SshClient client;
    private final Map<String, Host> hosts = new java.util.concurrent.ConcurrentHashMap<>();
    /** The host keys the verifier refused, by session: what a failed login reports. */
    private final Map<ClientSession, String> refusedHostKeys = new ConcurrentHashMap<>();

    /** A host's session, its Java, and the class path staged there. */
    private record Host(String name, ClientSession session, int javaFeature, String classPath) {
    }

    private SshPlaces(SshSettings settings) {
        this.settings = settings;
        this.client = SshClient.setUpDefaultClient();
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);     // the configuration says everything
        KnownHostsServerKeyVerifier knownHosts = new KnownHostsServerKeyVerifier(RejectAllServerKeyVerifier.INSTANCE,
                settings.knownHosts());
        client.setServerKeyVerifier((session, remote, key) -> {
            boolean known = knownHosts.verifyServerKey(session, remote, key);
            if (!known) {
                refusedHostKeys.put(session, KeyUtils.getKeyType(key) + " " + KeyUtils.getFingerPrint(key));
            }
            return known;
        });
        client.addSessionListener(new SessionListener() {
            @Override
            public void sessionCreated(Session session) {
                if (session instanceof ClientSession c) {
                    preferKnownHostKeyTypes(c);
                }
            }
        });
        client.setUserAuthFactories(List.of(UserAuthPublicKeyFactory.INSTANCE));   // keys only, never a password
        // the places talk over their own connections, so a session may carry nothing for hours: never idle out,
        // but ask the host every keepAlive whether it is there (as OpenSSH's ServerAliveInterval), and give up on
        // it after three unanswered asks
        CoreModuleProperties.IDLE_TIMEOUT.set(client, Duration.ZERO);
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(client, settings.keepAlive());
        CoreModuleProperties.HEARTBEAT_REPLY_WAIT.set(client, settings.keepAlive());
        CoreModuleProperties.HEARTBEAT_NO_REPLY_MAX.set(client, 3);
        client.setKeyIdentityProvider(settings.identityFiles().isEmpty() ? KeyIdentityProvider.EMPTY_KEYS_PROVIDER
                : new FileKeyPairProvider(settings.identityFiles()));
        if (settings.agentSocket() != null) {
            client.setAgentFactory(SshAgentSocket.factory(settings.agentSocket()));
        }
        client.start();
    }

    /**
     * Before the key exchange: asks the host first for a key of a type {@code known_hosts} has for it, as OpenSSH
     * does (a host with keys of several types presents the one the client prefers; one known_hosts does not have
     * would be refused though the host is known).
     */
    private void preferKnownHostKeyTypes(ClientSession session) {
        if (session.getConnectAddress() == null) {
            return;
        }
        SshdSocketAddress at = SshdSocketAddress.toSshdSocketAddress(session.getConnectAddress());
        Set<String> known = knownKeyTypes(at.getHostName(), at.getPort());
        if (known.isEmpty()) {
            return;
        }
        List<NamedFactory<Signature>> ordered = new ArrayList<>(session.getSignatureFactories());
        ordered.sort(java.util.Comparator.comparingInt(f -> known.contains(KeyUtils.getCanonicalKeyType(f.getName()))
                ? 0 : 1));
        session.setSignatureFactories(ordered);
    }

    /** The (canonical) key types {@code known_hosts} has for {@code host:port}. */
    private Set<String> knownKeyTypes(String host, int port) {
        Set<String> types = new java.util.LinkedHashSet<>();
        try {
            if (host != null && java.nio.file.Files.isRegularFile(settings.knownHosts())) {
                for (KnownHostEntry e : KnownHostEntry.readKnownHostEntries(settings.knownHosts())) {
                    if (e.getKeyEntry() != null && e.isHostMatch(host, port)) {
                        types.add(KeyUtils.getCanonicalKeyType(e.getKeyEntry().getKeyType()));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable file: the verifier refuses the host, and says so
        }
        return types;
    }

    /**
     * Logs in to the host of every place of {@code places}, checks its Java and stages this JVM's class path there:
     * the hosts side by side, all of it within {@code timeout}.
     *
     * @throws PlaceConnectionException if a host cannot be reached, logged in to, has no Java 21 or newer, or is not
     *         ready within the timeout
     */
    static SshPlaces open(SshSettings settings, List<PlacesConfig.Place> places, Duration timeout)
            throws InterruptedException {
        SshPlaces ssh = new SshPlaces(settings);
        var each = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
        boolean ready = false;
        try {
            Map<String, PlacesConfig.Place> firstOfHost = new LinkedHashMap<>();
            places.forEach(p -> firstOfHost.putIfAbsent(p.hostname(), p));
            List<ClassPathStaging.Artifact> artifacts = firstOfHost.isEmpty() ? List.of()
                    : ClassPathStaging.ofThisJvm();
            // the hosts are prepared side by side, all of it within the launch's timeout; the first to fail is
            // reported at once, and on the timeout every host not ready is named
            var done = new java.util.concurrent.ExecutorCompletionService<Host>(each);
            firstOfHost.values().forEach(p -> done.submit(() -> ssh.prepare(p, artifacts)));
            long deadline = System.nanoTime() + timeout.toNanos();
            for (int i = 0; i < firstOfHost.size(); i++) {
                var next = done.poll(Math.max(0, deadline - System.nanoTime()),
                        java.util.concurrent.TimeUnit.NANOSECONDS);
                if (next == null) {
                    List<String> waiting = firstOfHost.values().stream().filter(p -> !ssh.hosts.containsKey(
                            p.hostname())).map(p -> p.hostname() + ":" + settings.port() + " (for place " + p.name()
                            + ")").toList();
                    throw new PlaceConnectionException("logging in to " + String.join(", ", waiting) + ", checking its"
                            + " Java and staging the class path there did not end within " + timeout.toMillis()
                            + " ms (selectorSystem.bootstrapTimeout, or Places.builder().bootstrapTimeout(...))");
                }
                try {
                    Host host = next.get();
                    ssh.hosts.put(host.name(), host);
                } catch (java.util.concurrent.ExecutionException failed) {
                    throw failed.getCause() instanceof RuntimeException r ? r
                            : new PlaceConnectionException("preparing a host failed: " + failed.getCause(),
                            failed.getCause());
                }
            }
            ready = true;
            return ssh;
        } finally {
            if (!ready) {
                ssh.close();                              // ends the sessions: a host still being prepared stops
            }
            each.shutdownNow();                           // and its thread is not waited for
        }
    }

    private Host prepare(PlacesConfig.Place place, List<ClassPathStaging.Artifact> artifacts) {
        String host = place.hostname();
        String where = host + ":" + settings.port();
        String forWhom = " (for place " + place.name() + ")";
        long timeout = settings.connectTimeout().toMillis();
        ClientSession session;
        try {
            session = client.connect(settings.user(), host, settings.port()).verify(timeout).getClientSession();
        } catch (IOException e) {
            throw new PlaceConnectionException("cannot reach " + where + " by SSH" + forWhom + ": " + message(e), e);
        }
        try {
            session.auth().verify(timeout);
        } catch (IOException e) {
            String key = refusedHostKeys.get(session);
            closeQuietly(session);
            if (key != null) {
                Set<String> known = knownKeyTypes(host, settings.port());
                throw new PlaceConnectionException("the host key of " + where + forWhom + " (" + key + ") is not in "
                        + settings.knownHosts() + (known.isEmpty() ? ", which has no key for that host"
                        : ", which has a key of type " + String.join(", ", known) + " for that host, not this one")
                        + ": if it is that host's key, add it (ssh-keyscan -p " + settings.port() + " " + host
                        + " >> " + settings.knownHosts() + "); if it is not, someone may be in between", e);
            }
            throw new PlaceConnectionException(where + forWhom + " refused user " + settings.user() + "'s keys ("
                    + offered() + "): " + message(e), e);
        }
        try {
            int feature = javaFeature(session, where + forWhom);
            ClassPathStaging.Staged staged;
            try (SftpClient sftp = SftpClientFactory.instance().createSftpClient(session)) {
                staged = ClassPathStaging.stage(sftp, settings.directory(), artifacts);
            }
            LOG.log(System.Logger.Level.INFO, () -> "staged the class path at " + where + ": " + staged.paths().size()
                    + " jars, " + staged.sent() + " sent (" + staged.bytesSent() / 1024 + " KiB), the others there"
                    + " already");
            return new Host(host, session, feature, String.join(":", staged.paths()));
        } catch (IOException e) {
            closeQuietly(session);
            throw new PlaceConnectionException("cannot stage the program's class path in " + settings.directory()
                    + " at " + where + forWhom + ": " + message(e), e);
        } catch (RuntimeException e) {
            closeQuietly(session);
            throw e;
        }
    }

    private String offered() {
        List<String> keys = new ArrayList<>();
        if (settings.agentSocket() != null) {
            keys.add("the agent's at " + settings.agentSocket());
        }
        settings.identityFiles().forEach(f -> keys.add(f.toString()));
        return "offered: " + String.join(", ", keys);
    }

    /** The feature version of the host's {@code java}, which must be 21 or newer. */
    private int javaFeature(ClientSession session, String where) throws IOException {
        String command = java() + " -version";
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Integer status;
        try (ChannelExec exec = session.createExecChannel(command)) {
            exec.setOut(output);
            exec.setErr(output);
            exec.open().verify(settings.connectTimeout().toMillis());
            Set<ClientChannelEvent> ended = exec.waitFor(EnumSet.of(ClientChannelEvent.CLOSED),
                    Duration.ofSeconds(60));
            if (!ended.contains(ClientChannelEvent.CLOSED)) {
                throw new PlaceConnectionException("'" + command + "' at " + where + " did not end within 60 s");
            }
            status = exec.getExitStatus();
        }
        String said = output.toString(StandardCharsets.UTF_8).strip().replace('\n', ' ');
        Matcher version = VERSION.matcher(said);
        if (status == null || status != 0 || !version.find()) {
            throw new PlaceConnectionException("no Java at " + where + ": '" + command + "' ended with status "
                    + status + (said.isEmpty() ? "" : " and said: " + said) + "; install a JDK 21 or newer there, or"
                    + " set selectorSystem.ssh.java to its java");
        }
        int feature = Integer.parseInt(version.group(2));
        if (version.group(1) != null || feature < 21) {
            throw new PlaceConnectionException("Java " + (version.group(1) != null ? "1." : "") + feature + " at "
                    + where + " (" + settings.java() + "): the places need Java 21 or newer; set"
                    + " selectorSystem.ssh.java to a newer one's java");
        }
        return feature;
    }

    /**
     * Starts {@code place}'s JVM on its host, running {@link PlaceMain} with the staged class path.
     *
     * @throws IOException if the channel cannot be opened
     */
    PlaceProcess start(PlacesConfig.Place place, List<String> jvmOptions, List<String> arguments) throws IOException {
        Host host = hosts.get(place.hostname());
        List<String> command = new ArrayList<>(List.of("exec", java()));
        command.addAll(PlaceLauncher.placeJvmOptions(host.javaFeature()));
        jvmOptions.forEach(o -> command.add(quote(o)));
        command.addAll(List.of("-cp", quote(host.classPath()), PlaceMain.class.getName()));
        arguments.forEach(a -> command.add(quote(a)));
        ChannelExec exec = host.session().createExecChannel(String.join(" ", command));
        try {
            exec.open().verify(settings.connectTimeout().toMillis());
        } catch (IOException | RuntimeException e) {
            exec.close(true);
            throw e;
        }
        return new RemotePlace(exec, host.name() + ":" + settings.port(), exec.getInvertedErr());
    }

    /** The java command, for the remote shell: a leading {@code ~/} is the remote home. */
    private String java() {
        String java = settings.java();
        return java.startsWith("~/") ? "~/" + quote(java.substring(2)) : quote(java);
    }

    /** {@code s} as one word for a POSIX shell. */
    static String quote(String s) {
        return s.matches("[A-Za-z0-9_./:=,@%+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    private static String message(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root == e || m == null ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }

    private static void closeQuietly(ClientSession session) {
        try {
            session.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** Ends every session (and so every remote place still running) and the client. */
    @Override
    public void close() {
        hosts.values().forEach(h -> closeQuietly(h.session()));
        try {
            client.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** A place on another host: its exec channel, and the end of its error output. */
    private static final class RemotePlace implements PlaceProcess {
        private final ChannelExec channel;
        private final String where;
        private final ErrorOutputRelay errors;

        RemotePlace(ChannelExec channel, String where, InputStream errorStream) {
            this.channel = channel;
            this.where = where;
            this.errors = new ErrorOutputRelay(errorStream, where, "place-ssh-errors");
        }

        @Override
        public OutputStream stdin() {
            return channel.getInvertedIn();
        }

        @Override
        public InputStream stdout() {
            return channel.getInvertedOut();
        }

        @Override
        public boolean isAlive() {
            return channel.getExitStatus() == null && !channel.isClosed();
        }

        @Override
        public int exitStatus() {
            Integer status = channel.getExitStatus();
            return status == null ? -1 : status;
        }

        @Override
        public String errorTail() {
            String tail = errors.tail(!isAlive(), 1_000);
            String signal = channel.getExitSignal();
            return (signal == null ? "" : "(ended by signal " + signal + ") ") + tail;
        }

        @Override
        public boolean waitFor(long seconds) {
            Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED,
                    ClientChannelEvent.EXIT_STATUS), Duration.ofSeconds(seconds));
            return events.contains(ClientChannelEvent.CLOSED) || events.contains(ClientChannelEvent.EXIT_STATUS);
        }

        /**
         * Closes its channel: the place's input ends and it halts (a JVM that is stopped, SIGSTOP, halts when it is
         * continued; SSH has no portable way to kill it).
         */
        @Override
        public void kill() {
            channel.close(true);
        }

        @Override
        public String describe() {
            return "on " + where + " over SSH";
        }

        @Override
        public Optional<ProcessHandle> handle() {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "SSH to " + hosts.keySet().stream().collect(Collectors.joining(", "));
    }
}
