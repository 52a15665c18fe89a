package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS between places, with certificates the JDK's {@code keytool} makes for the test: a certificate
 * authority, and a key and certificate for each place signed by it. Places whose certificates the trust store
 * accepts and whose names match connect and exchange messages; a certificate for another place's name, or one
 * signed by another authority, is refused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlaceTlsTest {
    record Note(String text) {
    }

    private static final String PASSWORD = "changeit";
    @TempDir
    static Path dir;
    private final List<Transport> open = new ArrayList<>();

    @BeforeAll
    static void certificates() throws Exception {
        keytool("-genkeypair", "-alias", "ca", "-dname", "CN=switchboard-test-ca", "-ext", "bc:c", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-keystore", "ca.p12", "-storetype", "PKCS12",
                "-storepass", PASSWORD);
        keytool("-exportcert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASSWORD, "-rfc", "-file",
                "ca.pem");
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "trust.p12",
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-genkeypair", "-alias", "rogue", "-dname", "CN=another-ca", "-ext", "bc:c", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-keystore", "rogue-ca.p12", "-storetype", "PKCS12",
                "-storepass", PASSWORD);
        // a subject whose organization's value holds an escaped ",CN=p1": it is for "rogue", not for p1
        keytool("-genkeypair", "-alias", "tricky", "-dname", "CN=rogue, O=x\\,CN=p1", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-keystore", "tricky.p12", "-storetype", "PKCS12",
                "-storepass", PASSWORD);
        List<CompletableFuture<Void>> each = new ArrayList<>();
        for (String[] place : new String[][] {{"p0", "ca"}, {"p1", "ca"}, {"p2", "ca"}, {"rogue-p1", "rogue"}}) {
            each.add(CompletableFuture.runAsync(() -> {
                try {
                    signed(place[0], place[1]);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, TransportTest.OWN_THREAD));
        }
        for (CompletableFuture<Void> f : each) {
            f.get(100, TimeUnit.SECONDS);
        }
    }

    /** {@code <file>.p12}: a key and a certificate for the place's name, signed by {@code ca}. */
    private static void signed(String file, String ca) throws Exception {
        String name = file.startsWith("rogue-") ? file.substring(6) : file;
        String store = file + ".p12";
        keytool("-genkeypair", "-alias", "place", "-dname", "CN=" + name, "-keyalg", "EC", "-groupname",
                "secp256r1", "-validity", "2", "-keystore", store, "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-certreq", "-alias", "place", "-keystore", store, "-storepass", PASSWORD, "-file", file + ".csr");
        String caStore = ca.equals("ca") ? "ca.p12" : "rogue-ca.p12";
        keytool("-gencert", "-alias", ca, "-keystore", caStore, "-storepass", PASSWORD, "-infile", file + ".csr",
                "-outfile", file + ".pem", "-ext", "san=dns:" + name, "-validity", "2", "-rfc");
        keytool("-exportcert", "-alias", ca, "-keystore", caStore, "-storepass", PASSWORD, "-rfc", "-file",
                file + "-ca.pem");
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", file + "-ca.pem", "-keystore", store,
                "-storepass", PASSWORD);
        keytool("-importcert", "-alias", "place", "-file", file + ".pem", "-keystore", store, "-storepass",
                PASSWORD);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", command, output).isZero();
    }

    private static Authentication tls(String keyStore) {
        return Authentication.tls(dir.resolve(keyStore + ".p12"), PASSWORD.toCharArray(), dir.resolve("trust.p12"),
                PASSWORD.toCharArray());
    }

    @AfterEach
    void closeAll() {
        open.forEach(Transport::close);
    }

    private Transport place(int index, List<String> names, String keyStore, TransportTest.Inbox inbox) {
        Transport t = new Transport(index, "run-tls", names, new MessageCodec(List.of(Note.class), "test"), inbox,
                TransportSettings.DEFAULTS, tls(keyStore));
        open.add(t);
        return t;
    }

    /** Connects every place (each from its own thread); the failures, by place. */
    private static List<Throwable> connectAll(List<Transport> places, List<InetSocketAddress> at) throws Exception {
        List<CompletableFuture<Throwable>> each = new ArrayList<>();
        for (Transport t : places) {
            each.add(CompletableFuture.supplyAsync(() -> {
                try {
                    t.connect(at, Duration.ofSeconds(20));
                    return null;
                } catch (Throwable e) {
                    return e;
                }
            }, TransportTest.OWN_THREAD));
        }
        List<Throwable> failures = new ArrayList<>();
        for (CompletableFuture<Throwable> f : each) {
            failures.add(f.get(60, TimeUnit.SECONDS));
        }
        return failures;
    }

    @Test
    void placesWithTrustedCertificatesForTheirNamesConnectAndTalk() throws Exception {
        List<String> names = List.of("p0", "p1", "p2");
        List<TransportTest.Inbox> in = List.of(new TransportTest.Inbox(), new TransportTest.Inbox(),
                new TransportTest.Inbox());
        List<Transport> places = new ArrayList<>();
        List<InetSocketAddress> at = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            places.add(place(i, names, names.get(i), in.get(i)));
            at.add(places.get(i).bind(new InetSocketAddress("127.0.0.1", 0)));
        }
        assertThat(connectAll(places, at)).containsOnlyNulls();
        places.get(0).send(2, new Note("to p2, encrypted"));
        places.get(2).send(1, new Note("to p1, encrypted"));
        assertThat(in.get(2).next()).containsExactly(0, new Note("to p2, encrypted"));
        assertThat(in.get(1).next()).containsExactly(2, new Note("to p1, encrypted"));
    }

    @Test
    void aCertificateForAnotherPlacesNameIsRefusedEitherWay() throws Exception {
        List<String> names = List.of("p0", "p1");
        // place 1 presents p2's certificate (trusted, but not for p1): place 0 will not take it for place 1
        Transport p0 = place(0, names, "p0", new TransportTest.Inbox());
        TransportTest.Inbox impostorIn = new TransportTest.Inbox();
        Transport impostor = place(1, names, "p2", impostorIn);
        List<InetSocketAddress> at = List.of(p0.bind(new InetSocketAddress("127.0.0.1", 0)),
                impostor.bind(new InetSocketAddress("127.0.0.1", 0)));
        assertThatThrownBy(() -> p0.connect(at, Duration.ofSeconds(20))).isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p0 cannot join: its certificate is for [p2], not for place p1");
        // the impostor, which had welcomed place 0, is told why too, not left with a connection closed without a word
        assertThat(impostorIn.lost.poll(20, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("0: place p0 closed the"
                + " connection: place p0 refused the connection: its certificate is for [p2], not for place p1");
        // place 0 presents p2's certificate: place 1 refuses it, and says why
        Transport impostor0 = place(0, names, "p2", new TransportTest.Inbox());
        Transport p1 = place(1, names, "p1", new TransportTest.Inbox());
        List<InetSocketAddress> at2 = List.of(impostor0.bind(new InetSocketAddress("127.0.0.1", 0)),
                p1.bind(new InetSocketAddress("127.0.0.1", 0)));
        assertThatThrownBy(() -> impostor0.connect(at2, Duration.ofSeconds(20)))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessage("place p0 cannot join: place p1 refused the connection: its certificate is for [p2],"
                        + " not for place p0");
        assertThat(p1.isConnected(0)).isFalse();
    }

    @Test
    void aCommaInsideAnotherAttributesValueNamesNoPlace() throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(dir.resolve("tricky.p12"))) {
            store.load(in, PASSWORD.toCharArray());
        }
        var certificate = (java.security.cert.X509Certificate) store.getCertificate("tricky");
        assertThat(certificate.getSubjectX500Principal().getName()).contains("O=x\\,CN");   // inside O's value
        assertThat(Authentication.certificateNames(certificate)).containsExactly("rogue");
    }

    @Test
    void aCertificateFromAnotherAuthorityFailsTheTlsHandshake() throws Exception {
        List<String> names = List.of("p0", "p1");
        Transport p0 = place(0, names, "p0", new TransportTest.Inbox());
        Transport rogue = place(1, names, "rogue-p1", new TransportTest.Inbox());
        List<InetSocketAddress> at = List.of(p0.bind(new InetSocketAddress("127.0.0.1", 0)),
                rogue.bind(new InetSocketAddress("127.0.0.1", 0)));
        assertThatThrownBy(() -> p0.connect(at, Duration.ofSeconds(20))).isInstanceOf(PlaceConnectionException.class)
                .hasMessageStartingWith("place p0 cannot join: the TLS handshake failed:");
        assertThat(Files.exists(dir.resolve("rogue-p1.p12"))).isTrue();
        assertThat(rogue.isConnected(0)).isFalse();
    }

    /** Over TLS too, a place closed before a word (the acceptor is full of handshakes) dials again and joins. */
    @Test
    void aPlaceThatComesWhileTheBoundIsFullDialsAgainOverTlsToo() throws Exception {
        List<String> names = List.of("p0", "p1");
        TransportTest.Inbox inbox = new TransportTest.Inbox();
        List<Class<?>> notes = List.of(PlaceSecurityTest.Note.class);
        Transport p1 = new Transport(1, "run-tls", names, new MessageCodec(notes, "test"), inbox,
                TransportSettings.DEFAULTS.withHandshake(Duration.ofMinutes(1), 2), tls("p1"));
        open.add(p1);
        InetSocketAddress at = p1.bind(new InetSocketAddress("127.0.0.1", 0));
        Transport p0 = new Transport(0, "run-tls", names, new MessageCodec(notes, "test"), new TransportTest.Inbox(),
                TransportSettings.DEFAULTS, tls("p0"));
        open.add(p0);
        InetSocketAddress a0 = p0.bind(new InetSocketAddress("127.0.0.1", 0));
        PlaceSecurityTest.joinsWhileTheBoundIsFull(p0, a0, p1, at, inbox);
    }

    /** The embedded launch with mutual TLS: each child place opens the key store of its name. */
    @Test
    void anEmbeddedLaunchRunsItsPlacesOverMutualTls() throws Exception {
        Path password = Files.writeString(dir.resolve("password"), PASSWORD);
        PlacesSecurity tls = new PlacesSecurity(PlacesSecurity.Mode.TLS, null, dir.resolve("{place}.p12"), password,
                dir.resolve("trust.p12"), password);
        ConfiguredPlacesTest.Thrower[] thrower = new ConfiguredPlacesTest.Thrower[1];
        PlacesReport report = Places.builder().places(3).workers(1).security(tls)
                .messages(ConfiguredPlacesTest.Hop.class, ConfiguredPlacesTest.NewBouncer.class)
                .run(places -> {
                    List<dev.switchboard.actor.ActorRef<ConfiguredPlacesTest.Hop>> bouncers = new ArrayList<>();
                    for (int p = 1; p < places.count(); p++) {
                        bouncers.add(places.start(p, new ConfiguredPlacesTest.NewBouncer()));
                    }
                    thrower[0] = new ConfiguredPlacesTest.Thrower(bouncers, 100);
                    thrower[0].start();
                });
        assertThat(report.places()).containsExactly("p0", "p1", "p2");
        assertThat(thrower[0].answers).isEqualTo(2 * 101);
        // the children do open their stores: without p2's, place p2 cannot start
        Path partial = Files.createDirectories(dir.resolve("without-p2"));
        for (String f : List.of("p0.p12", "p1.p12", "trust.p12")) {
            Files.copy(dir.resolve(f), partial.resolve(f), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        PlacesSecurity missing = new PlacesSecurity(PlacesSecurity.Mode.TLS, null, partial.resolve("{place}.p12"),
                password, partial.resolve("trust.p12"), password);
        assertThatThrownBy(() -> Places.builder().places(3).workers(1).security(missing)
                .messages(ConfiguredPlacesTest.Hop.class, ConfiguredPlacesTest.NewBouncer.class).run(places -> { }))
                .isInstanceOf(PlaceConnectionException.class)
                .hasMessageContaining("place p2 cannot run: place p2: cannot set up TLS with key store "
                        + partial.resolve("p2.p12") + " and trust store " + partial.resolve("trust.p12")
                        + ": there is no file " + partial.resolve("p2.p12"));
    }
}
