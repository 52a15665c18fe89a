package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.nativefs.NativeFileSystemFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.shell.ProcessShellFactory;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Places on hosts reached over SSH ([DistSelectors] §3), against SSH servers (MINA SSHD) started by the test on two
 * loopback addresses, 127.0.0.1 and 127.0.0.2, as two hosts: place 0 logs in with a key, checks each host's Java,
 * stages the class path once per jar, starts each place over its channel and runs the program. And each way it
 * fails, with the error that says so: a host nobody listens at, a host key not known, a key refused, no Java, a
 * port in use.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SshPlacesTest {
    private static final String ECDSA = "ecdsa-sha2-nistp256";

    @TempDir
    Path dir;

    private final List<SshServer> servers = new ArrayList<>();
    private int sshPort;
    private KeyPair user;
    private Path identity;
    private Path knownHosts;
    private Path staging;

    @BeforeEach
    void startSshServers() throws Exception {
        user = KeyUtils.generateKeyPair(ECDSA, 256);
        identity = privateKeyFile(dir.resolve("id_ecdsa"), user);
        SimpleGeneratorHostKeyProvider hostKeys = new SimpleGeneratorHostKeyProvider(dir.resolve("host-key"));
        hostKeys.setAlgorithm(KeyUtils.EC_ALGORITHM);
        for (String address : List.of("127.0.0.1", "127.0.0.2")) {
            sshPort = startServer(address, sshPort, hostKeys, null);   // the second on the first's port
        }
        KeyPair hostKey = hostKeys.loadKeys(null).iterator().next();
        knownHosts = dir.resolve("known_hosts");
        Files.writeString(knownHosts, "[127.0.0.1]:" + sshPort + " " + PublicKeyEntry.toString(hostKey.getPublic())
                + "\n[127.0.0.2]:" + sshPort + " " + PublicKeyEntry.toString(hostKey.getPublic()) + "\n");
        staging = dir.resolve("remote-home").resolve("staging");
    }

    /**
     * An SSH server at {@code address} ({@code port} 0: a free one) with {@code hostKeys}, that knows the user's key,
     * runs commands as OpenSSH does (in the user's shell) and serves SFTP; its port. {@code idleTimeout}: when it
     * closes a session that sends it nothing (null: MINA's default, 10 minutes).
     */
    private int startServer(String address, int port, org.apache.sshd.common.keyprovider.KeyPairProvider hostKeys,
                            java.time.Duration idleTimeout) throws IOException {
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost(address);
        server.setPort(port);
        server.setKeyPairProvider(hostKeys);
        server.setPublickeyAuthenticator((name, key, session) -> KeyUtils.compareKeys(key, user.getPublic()));
        server.setCommandFactory((channel, command) -> new ProcessShellFactory(command, "/bin/sh", "-c", command)
                .createShell(channel));
        server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        server.setFileSystemFactory(NativeFileSystemFactory.INSTANCE);
        if (idleTimeout != null) {
            org.apache.sshd.core.CoreModuleProperties.IDLE_TIMEOUT.set(server, idleTimeout);
        }
        server.start();
        servers.add(server);
        return server.getPort();
    }

    @AfterEach
    void stopSshServers() throws IOException {
        for (SshServer s : servers) {
            s.stop(true);
        }
    }

    @Test
    void placesStartedOverSshRunTheProgramAndASecondRunSendsNoJarAgain() throws Exception {
        Path conf = config(List.of("127.0.0.1", "127.0.0.1", "127.0.0.2"), TestPorts.free(3),
                sshSection(identity, knownHosts, java()));
        PlacesReport report = ConfiguredPlacesTest.launch("--config", conf.toString());
        assertThat(report.places()).containsExactly("p0", "p1", "p2");
        assertThat(ConfiguredPlacesTest.thrower.answers).isEqualTo(2 * 101);
        assertThat(report.totalDeadLetters()).isZero();

        Map<String, FileTime> staged = stagedJars();
        int classPathEntries = (int) Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(e -> Files.exists(Path.of(e))).count();
        assertThat(staged).as("each class path entry staged once, named by its contents").hasSize(classPathEntries);
        assertThat(staged.keySet()).allSatisfy(name -> assertThat(name).matches("[0-9a-f]{16}-.+\\.jar"));

        ConfiguredPlacesTest.launch("--config", conf.toString());
        assertThat(ConfiguredPlacesTest.thrower.answers).isEqualTo(2 * 101);
        assertThat(stagedJars()).as("the second run sent no jar: none is rewritten").isEqualTo(staged);
    }

    @Test
    void aHostNobodyListensAtIsNamed() throws Exception {
        int closed = TestPorts.free(1)[0];
        Path conf = config(List.of("127.0.0.1", "127.0.0.1"), TestPorts.free(2), """
                ssh { port: %d, identityFiles: ["%s"], agentSocket: "", knownHosts: "%s", java: "%s",
                      directory: "%s" }
                """.formatted(closed, identity, knownHosts, java(), staging));
        assertThatThrownBy(() -> ConfiguredPlacesTest.launch("--config", conf.toString()))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("cannot reach 127.0.0.1:" + closed + " by SSH (for place p1)");
    }

    /** A host that takes the connection and says nothing: the launch fails within its bootstrap timeout, naming it. */
    @Test
    void aHostThatNeverAnswersFailsTheLaunchWithinItsTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.2"))) {
            Path conf = config(List.of("127.0.0.1", "127.0.0.2"), TestPorts.free(2), """
                    ssh { port: %d, identityFiles: ["%s"], agentSocket: "", knownHosts: "%s", java: "%s",
                          directory: "%s", connectTimeout: 120s }
                    """.formatted(silent.getLocalPort(), identity, knownHosts, java(), staging));
            assertThatThrownBy(() -> Places.builder().bootstrapTimeout(java.time.Duration.ofSeconds(2)).workers(1)
                    .messages(ConfiguredPlacesTest.Hop.class, ConfiguredPlacesTest.NewBouncer.class)
                    .args("--config", conf.toString()).run(places -> { }))
                    .isInstanceOf(PlaceConnectionException.class)
                    .hasMessage("logging in to 127.0.0.2:" + silent.getLocalPort() + " (for place p1), checking its"
                            + " Java and staging the class path there did not end within 2000 ms"
                            + " (selectorSystem.bootstrapTimeout, or Places.builder().bootstrapTimeout(...))");
        }
    }

    @Test
    void aHostKeyNotInKnownHostsIsRefused() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty_known_hosts"), "");
        Path conf = config(List.of("127.0.0.1", "127.0.0.1"), TestPorts.free(2),
                sshSection(identity, empty, java()));
        assertThatThrownBy(() -> ConfiguredPlacesTest.launch("--config", conf.toString()))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("the host key of 127.0.0.1:" + sshPort + " (for place p1)")
                .hasMessageContaining("is not in " + empty)
                .hasMessageContaining("ssh-keyscan -p " + sshPort + " 127.0.0.1");
    }

    @Test
    void aHostKeyOtherThanTheKnownOneIsRefusedNamingTheKnownType() throws Exception {
        KeyPair other = KeyUtils.generateKeyPair(ECDSA, 256);
        Path changed = Files.writeString(dir.resolve("changed_known_hosts"), "[127.0.0.1]:" + sshPort + " "
                + PublicKeyEntry.toString(other.getPublic()) + "\n");
        Path conf = config(List.of("127.0.0.1", "127.0.0.1"), TestPorts.free(2), sshSection(identity,
                changed, java()));
        assertThatThrownBy(() -> ConfiguredPlacesTest.launch("--config", conf.toString()))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("the host key of 127.0.0.1:" + sshPort + " (for place p1)")
                .hasMessageContaining("has a key of type " + ECDSA + " for that host, not this one")
                .hasMessageContaining("someone may be in between");
    }

    /**
     * A host with keys of two types, of which known_hosts has the one the client would not ask for first (RSA; MINA
     * prefers ECDSA): the client asks for the known one, as OpenSSH does, and the host is accepted.
     */
    @Test
    void aHostWithSeveralKeysIsAskedForTheTypeKnownHostsHas() throws Exception {
        KeyPair ec = KeyUtils.generateKeyPair(ECDSA, 256);
        KeyPair rsa = KeyUtils.generateKeyPair("ssh-rsa", 2048);
        int port = startServer("127.0.0.1", 0, org.apache.sshd.common.keyprovider.KeyPairProvider.wrap(ec, rsa),
                null);
        Path rsaOnly = Files.writeString(dir.resolve("rsa_known_hosts"), "[127.0.0.1]:" + port + " "
                + PublicKeyEntry.toString(rsa.getPublic()) + "\n");
        Path conf = config(List.of("127.0.0.1", "127.0.0.1"), TestPorts.free(2), """
                ssh { port: %d, identityFiles: ["%s"], agentSocket: "", knownHosts: "%s", java: "%s",
                      directory: "%s" }
                """.formatted(port, identity, rsaOnly, java(), staging));
        PlacesReport report = ConfiguredPlacesTest.launch("--config", conf.toString());
        assertThat(report.places()).containsExactly("p0", "p1");
        assertThat(ConfiguredPlacesTest.thrower.answers).isEqualTo(101);
    }

    /**
     * A host that closes a session it hears nothing from for three seconds: the program's body is quiet for six,
     * and its places survive, because the client asks the host every keepAlive (here 200 ms) whether it is there.
     * (The margin between the two is for a busy machine, where a JVM can miss a keepalive's time by a second.)
     */
    @Test
    void aQuietProgramKeepsItsSessionsAlive() throws Exception {
        SimpleGeneratorHostKeyProvider hostKeys = new SimpleGeneratorHostKeyProvider(dir.resolve("host-key"));
        int port = startServer("127.0.0.1", 0, hostKeys, java.time.Duration.ofSeconds(3));
        Path known = Files.writeString(dir.resolve("quiet_known_hosts"), "[127.0.0.1]:" + port + " "
                + PublicKeyEntry.toString(hostKeys.loadKeys(null).iterator().next().getPublic()) + "\n");
        Path conf = config(List.of("127.0.0.1", "127.0.0.1"), TestPorts.free(2), """
                ssh { port: %d, identityFiles: ["%s"], agentSocket: "", knownHosts: "%s", java: "%s",
                      directory: "%s", keepAlive: 200ms }
                """.formatted(port, identity, known, java(), staging));
        PlacesReport report = Places.builder().workers(1).messages(ConfiguredPlacesTest.Hop.class,
                ConfiguredPlacesTest.NewBouncer.class).args("--config", conf.toString()).run(places -> {
                    // the workload: a program with nothing to say for six seconds, then a bounce
                    Thread.sleep(6_000);
                    new ConfiguredPlacesTest.Thrower(List.of(places.start(1, new ConfiguredPlacesTest.NewBouncer())),
                            10).start();
                });
        assertThat(report.places()).containsExactly("p0", "p1");
    }

    @Test
    void aKeyTheHostDoesNotKnowIsRefused() throws Exception {
        Path stranger = privateKeyFile(dir.resolve("id_stranger"), KeyUtils.generateKeyPair(ECDSA, 256));
        Path conf = config(List.of("127.0.0.1", "127.0.0.1"), TestPorts.free(2),
                sshSection(stranger, knownHosts, java()));
        assertThatThrownBy(() -> ConfiguredPlacesTest.launch("--config", conf.toString()))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("127.0.0.1:" + sshPort + " (for place p1) refused user")
                .hasMessageContaining(stranger.toString());
    }

    @Test
    void aHostWithoutJavaIsNamed() throws Exception {
        Path conf = config(List.of("127.0.0.1", "127.0.0.2"), TestPorts.free(2),
                sshSection(identity, knownHosts, "/nonexistent/jdk/bin/java"));
        assertThatThrownBy(() -> ConfiguredPlacesTest.launch("--config", conf.toString()))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("no Java at 127.0.0.2:" + sshPort + " (for place p1)")
                .hasMessageContaining("selectorSystem.ssh.java");
    }

    @Test
    void aPortInUseOnTheRemoteHostIsNamed() throws Exception {
        int[] ports = TestPorts.free(2);
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), ports[1]));
            Path conf = config(List.of("127.0.0.1", "127.0.0.2"), ports, sshSection(identity, knownHosts, java()));
            assertThatThrownBy(() -> ConfiguredPlacesTest.launch("--config", conf.toString()))
                    .isInstanceOf(PlaceConnectionException.class)
                    .hasMessageContaining("place p1 (on 127.0.0.2:" + sshPort + " over SSH) exited with status 2")
                    .hasMessageContaining("cannot listen at 127.0.0.2:" + ports[1])
                    .hasMessageContaining("port in use");
        }
    }

    /** The key comes from an SSH agent ({@code ssh-agent}, where the machine has one), no key file named. */
    @Test
    void theAgentsKeyLogsIn() throws Exception {
        assumeTrue(onPath("ssh-agent") && onPath("ssh-add"), "no ssh-agent and ssh-add on this machine's PATH");
        Path socket = dir.resolve("agent.sock");
        Process agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("agent.out").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!accepts(socket)) {           // the socket's file exists from its bind, before its listen
                assertThat(agent.isAlive()).as("ssh-agent runs: %s", Files.readString(dir.resolve("agent.out")))
                        .isTrue();
                assertThat(System.nanoTime()).as("ssh-agent listened on its socket within 20 s").isLessThan(deadline);
                agent.waitFor(20, TimeUnit.MILLISECONDS);
            }
            ProcessBuilder add = new ProcessBuilder("ssh-add", identity.toString()).redirectErrorStream(true);
            add.environment().put("SSH_AUTH_SOCK", socket.toString());
            Process adding = add.start();
            assertThat(adding.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(adding.exitValue()).as("ssh-add: %s", new String(adding.getInputStream().readAllBytes()))
                    .isZero();
            Path conf = config(List.of("127.0.0.1", "127.0.0.2"), TestPorts.free(2), """
                    ssh { port: %d, identityFiles: [], agentSocket: "%s", knownHosts: "%s", java: "%s",
                          directory: "%s" }
                    """.formatted(sshPort, socket, knownHosts, java(), staging));
            PlacesReport report = ConfiguredPlacesTest.launch("--config", conf.toString());
            assertThat(report.places()).containsExactly("p0", "p1");
            assertThat(ConfiguredPlacesTest.thrower.answers).isEqualTo(101);
        } finally {
            agent.destroyForcibly();
        }
    }

    /** Whether a connection to the Unix socket {@code socket} is accepted (it is closed at once). */
    private static boolean accepts(Path socket) {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return probe.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException notYet) {        // no file yet, or bound but not listening: refused
            return false;
        }
    }

    private String sshSection(Path key, Path hosts, String java) {
        return """
                ssh { port: %d, identityFiles: ["%s"], agentSocket: "", knownHosts: "%s", java: "%s",
                      directory: "%s" }
                """.formatted(sshPort, key, hosts, java, staging);
    }

    private Path config(List<String> hosts, int[] ports, String ssh) throws IOException {
        StringBuilder remote = new StringBuilder();
        for (int i = 1; i < hosts.size(); i++) {
            remote.append("    { place: p%d, hostname: \"%s\", port: %d }\n".formatted(i, hosts.get(i), ports[i]));
        }
        Path conf = dir.resolve("places.conf");
        Files.writeString(conf, """
                selectorSystem {
                  init { place: p0, hostname: "%s", port: %d }
                  remote: [
                %s  ]
                  jvmOptions: ["-Xmx256m"]
                  %s
                }
                """.formatted(hosts.get(0), ports[0], remote, ssh));
        return conf;
    }

    private Map<String, FileTime> stagedJars() throws IOException {
        Map<String, FileTime> jars = new TreeMap<>();
        try (Stream<Path> files = Files.list(staging)) {
            for (Path f : files.toList()) {
                jars.put(f.getFileName().toString(), Files.getLastModifiedTime(f));
            }
        }
        return jars;
    }

    private static Path privateKeyFile(Path file, KeyPair key) throws Exception {
        try (OutputStream out = Files.newOutputStream(file)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(key, "switchboard-test", null, out);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, command)));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
