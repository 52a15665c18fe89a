package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The places' configuration: [DistSelectors]'s Fig. 8 reads as written, the extra keys read, and every unusable file is
 * refused before anything starts with the file, the line, the key and the problem.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PlacesConfigTest {
    private static final ClassLoader CLASSES = PlacesConfigTest.class.getClassLoader();

    @TempDir
    Path dir;

    private Path write(String text) throws Exception {
        Path file = dir.resolve("places.conf");
        Files.writeString(file, text);
        return file;
    }

    private static PlacesConfig parse(String text) {
        return PlacesConfig.parse(text, "places.conf", CLASSES);
    }

    @Test
    void thePapersFigure8ReadsAsWritten() throws Exception {
        // [DistSelectors] Fig. 8, its host names replaced by addresses that resolve here
        Path file = write("""
                selectorSystem {
                  init {
                    place : p0,
                    hostname:127.0.0.1,
                    port: 5000,
                  }
                  remote : [
                    {
                    place : p1
                    hostname:127.0.0.2,
                    port: 5000,
                  },
                  {
                    place : p2
                    hostname:127.0.0.2,
                    port: 5002,
                  }
                ]
                }
                """);
        PlacesConfig config = PlacesConfig.load(file);
        assertThat(config.places()).containsExactly(
                new PlacesConfig.Place(0, "p0", "127.0.0.1", 5000),
                new PlacesConfig.Place(1, "p1", "127.0.0.2", 5000),
                new PlacesConfig.Place(2, "p2", "127.0.0.2", 5002));
        assertThat(config.master().name()).isEqualTo("p0");
        assertThat(config.place("p2").index()).isEqualTo(2);
        assertThat(config.workers()).isZero();
        assertThat(config.jvmOptions()).isEmpty();
        assertThat(config.messageClasses()).isEmpty();
        assertThat(config.origin()).isEqualTo(file.toString());
        assertThatThrownBy(() -> config.place("p9")).hasMessageContaining("no place p9 in " + file)
                .hasMessageContaining("[p0, p1, p2]");
    }

    @Test
    void workersJvmOptionsAndMessageClassesAreRead() {
        PlacesConfig config = parse("""
                selectorSystem {
                  init { place: master, hostname: localhost, port: 7000 }
                  workers: 4
                  jvmOptions: ["-Xmx1g", "-XX:+UseParallelGC"]
                  messages: ["java.lang.String", "dev.switchboard.place.GlobalId"]
                }
                """);
        assertThat(config.places()).singleElement().isEqualTo(new PlacesConfig.Place(0, "master", "localhost", 7000));
        assertThat(config.workers()).isEqualTo(4);
        assertThat(config.jvmOptions()).containsExactly("-Xmx1g", "-XX:+UseParallelGC");
        assertThat(config.messageClasses()).containsExactly("java.lang.String", "dev.switchboard.place.GlobalId");
    }

    @Test
    void aMissingOrMalformedFileIsNamed() throws Exception {
        Path missing = dir.resolve("nowhere.conf");
        assertThatThrownBy(() -> PlacesConfig.load(missing)).isInstanceOf(PlacesConfigException.class)
                .hasMessageStartingWith(missing + ": no such file");
        Path broken = write("selectorSystem { init { place: p0, hostname: localhost, port: 5000 }\n");
        assertThatThrownBy(() -> PlacesConfig.load(broken)).isInstanceOf(PlacesConfigException.class)
                .hasMessageStartingWith(broken + ": not a readable HOCON file")
                .hasMessageContaining("places.conf");
    }

    @Test
    void missingKeysAndWrongTypesNameTheKeyAndTheLine() {
        assertThatThrownBy(() -> parse("other { }")).hasMessageStartingWith("places.conf: selectorSystem is missing");
        assertThatThrownBy(() -> parse("selectorSystem { remote: [] }"))
                .hasMessageStartingWith("places.conf:1: selectorSystem.init is missing");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, port: 5000 }
                }
                """)).hasMessage("places.conf:2: selectorSystem.init.hostname is missing");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remote: [
                    { place: p1, hostname: localhost, port: "fifty" }
                  ]
                }
                """)).hasMessage("places.conf:4: selectorSystem.remote[0].port: a whole number, got 'fifty'");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 70000 }
                }
                """)).hasMessage("places.conf:2: selectorSystem.init.port: a port is 1 to 65535, not 70000");
        assertThatThrownBy(() -> parse("selectorSystem { init: 5 }"))
                .hasMessage("places.conf:1: selectorSystem.init: an object { ... }, got number");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remote: { place: p1 }
                }
                """)).hasMessageStartingWith("places.conf:3: selectorSystem.remote: a list of places")
                .hasMessageEndingWith("got object");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remote: [ "p1" ]
                }
                """)).hasMessageEndingWith("got a list of string: [\"p1\"]");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000.7 }
                }
                """)).hasMessage("places.conf:2: selectorSystem.init.port: a whole number, got '5000.7'");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: "p 0", hostname: localhost, port: 5000 }
                }
                """)).hasMessageContaining("selectorSystem.init.place: a place name is letters, digits");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  workers: 0
                }
                """)).hasMessage("places.conf:1: selectorSystem.workers: worker threads per place are 1 to 32767,"
                + " not 0");
    }

    @Test
    void anUnknownKeyIsRefusedNotIgnored() {
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remotes: [ { place: p1, hostname: localhost, port: 5001 } ]
                }
                """)).isInstanceOf(PlacesConfigException.class)
                .hasMessage("places.conf:3: selectorSystem.remotes: unknown key (known: bootstrapTimeout,"
                        + " failureTimeout, init, jvmOptions, limits, messages, remote, security, ssh, workers)");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000, portt: 5001 }
                }
                """)).hasMessage("places.conf:2: selectorSystem.init.portt: unknown key (known: bind, hostname, place,"
                + " port)");
    }

    @Test
    void aPlaceNameOrAnAddressUsedTwiceIsRefusedNamingBothPlaces() {
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remote: [
                    { place: p1, hostname: localhost, port: 5001 },
                    { place: p1, hostname: localhost, port: 5002 }
                  ]
                }
                """)).hasMessage("places.conf:5: selectorSystem.remote[1].place: p1 is also the name of the place"
                + " at selectorSystem.remote[0]");
        // localhost and 127.0.0.1 are one address: one port each
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remote: [ { place: p1, hostname: "127.0.0.1", port: 5000 } ]
                }
                """)).hasMessage("places.conf:3: selectorSystem.remote[0]: 127.0.0.1:5000 (127.0.0.1:5000) is also"
                + " the address of the place at selectorSystem.init; places on one host need ports of their own");
    }

    @Test
    void aHostThatDoesNotResolveIsNamed() {
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  remote: [ { place: p1, hostname: "cn20.no-such-cluster.invalid", port: 5000 } ]
                }
                """)).isInstanceOf(PlacesConfigException.class)
                .hasMessageStartingWith("places.conf:3: selectorSystem.remote[0].hostname:"
                        + " cn20.no-such-cluster.invalid does not resolve to an address");
    }

    @Test
    void aMessageClassThatIsNotOnTheClassPathIsNamed() {
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  messages: [
                    "java.lang.String",
                    "com.example.Pnig"
                  ]
                }
                """)).hasMessage("places.conf:5: selectorSystem.messages[1]: no class com.example.Pnig on the"
                + " class path (every message class must be on the class path of every place)");
        assertThatThrownBy(() -> parse("""
                selectorSystem {
                  init { place: p0, hostname: localhost, port: 5000 }
                  messages: "java.lang.String"
                }
                """)).hasMessageStartingWith("places.conf:3: selectorSystem.messages: a list of strings");
    }

    @Test
    void moreThanTheIdsCanNameIsRefused() {
        StringBuilder sb = new StringBuilder("selectorSystem {\n init { place: p0, hostname: localhost, port: 1 }\n"
                + " remote: [\n");
        for (int i = 1; i <= GlobalId.MAX_PLACES; i++) {     // 4,096 remote places: one too many with the master
            sb.append("  { place: p").append(i).append(", hostname: localhost, port: ").append(i + 1).append(" }\n");
        }
        sb.append(" ]\n}\n");
        assertThatThrownBy(() -> parse(sb.toString())).isInstanceOf(PlacesConfigException.class)
                .hasMessageContaining("selectorSystem.remote[4095]: more than 4096 places");
    }

    private Path secret(String name, String text, String permissions) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void placesProveTheyBelongWithASecretFileOnlyItsOwnerCanRead() throws Exception {
        String places = "init { place: p0, hostname: localhost, port: 5000 }";
        Path good = secret("secret", "a secret of 24 bytes....\n", "rw-------");
        PlacesConfig config = PlacesConfig.load(write("selectorSystem { " + places + ", security { secretFile: secret"
                + " } }"), CLASSES);
        assertThat(config.security()).isEqualTo(new PlacesSecurity(PlacesSecurity.Mode.HMAC, good, null, null, null,
                null));
        assertThat(config.security().authentication("p0", "places.conf").mode())
                .isEqualTo(Authentication.Mode.HMAC);
        secret("open", "a secret of 24 bytes....", "rw----r--");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", security { secretFile: \"" + dir.resolve("open")
                + "\" } }").security().authentication("p0", "places.conf"))
                .isInstanceOf(PlacesConfigException.class)
                .hasMessage("the places' secret file " + dir.resolve("open") + " can be read or written by others"
                        + " ([OTHERS_READ]); make it its owner's only: chmod 600 " + dir.resolve("open"));
        // group-readable: allowed if root owns the file (a Kubernetes Secret with an fsGroup), refused otherwise
        Path group = secret("group", "a secret of 24 bytes....", "r--r-----");
        PlacesConfig grouped = parse("selectorSystem { " + places + ", security { secretFile: \"" + group + "\" } }");
        if (Files.getOwner(group).getName().equals("root")) {
            assertThat(grouped.security().authentication("p0", "places.conf").mode())
                    .isEqualTo(Authentication.Mode.HMAC);
        } else {
            assertThatThrownBy(() -> grouped.security().authentication("p0", "places.conf"))
                    .hasMessageContaining("([GROUP_READ])");
        }
        Path binary = dir.resolve("binary");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
        Files.setPosixFilePermissions(binary, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", security { secretFile: \"" + binary
                + "\" } }").security().authentication("p0", "places.conf"))
                .hasMessageStartingWith("the places' secret file " + binary + " is not text (UTF-8)");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", security { secretFile: \"" + dir
                + "\" } }").security().authentication("p0", "places.conf"))
                .hasMessage("the places' secret file " + dir + " is a directory, not a file");
        secret("short", "too short", "rw-------");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", security { secretFile: \"" + dir.resolve("short")
                + "\" } }").security().authentication("p0", "places.conf"))
                .hasMessageStartingWith("the places' secret in " + dir.resolve("short") + " has 9 bytes; it needs at"
                        + " least 16");
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv(PlacesSecurity.SECRET_FILE_VARIABLE) == null);
        assertThatThrownBy(() -> parse("selectorSystem { " + places + " }").security()
                .authentication("p0", "places.conf")).isInstanceOf(PlacesConfigException.class)
                .hasMessageStartingWith("places.conf: selectorSystem.security.secretFile is missing: the places prove"
                        + " they belong to the program with a shared secret (mode: hmac, the default).");
    }

    @Test
    void tlsNeedsItsStoresAndTheInsecureModeIsNamedLoudly() {
        String places = "init { place: p0, hostname: localhost, port: 5000 }";
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", security { mode: tls, keyStore: k.p12 } }"))
                .isInstanceOf(PlacesConfigException.class).hasMessageStartingWith("places.conf:1:"
                        + " selectorSystem.security: mode tls needs keyStore");
        PlacesConfig tls = parse("selectorSystem { " + places + ", security { mode: tls, keyStore: \"certs/{place}.p12\","
                + " trustStore: certs/ca.p12, keyStorePasswordFile: certs/password } }");
        assertThat(tls.security().mode()).isEqualTo(PlacesSecurity.Mode.TLS);
        assertThat(tls.security().keyStore()).isEqualTo(Path.of("").toAbsolutePath().resolve("certs/{place}.p12"));
        assertThat(tls.security().trustStorePasswordFile()).isNull();
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", security { mode: none } }"))
                .hasMessage("places.conf:1: selectorSystem.security.mode: hmac, tls or unauthenticated-insecure, not"
                        + " 'none'");
        PlacesConfig open = parse("selectorSystem { " + places + ", security { mode: unauthenticated-insecure } }");
        assertThat(open.security().authentication("p0", "places.conf").mode())
                .isEqualTo(Authentication.Mode.UNAUTHENTICATED);
    }

    @Test
    void decodingLimitsAreReadWithTheirDefaults() {
        String places = "init { place: p0, hostname: localhost, port: 5000 }";
        assertThat(parse("selectorSystem { " + places + " }").limits()).isEqualTo(DecodingLimits.DEFAULTS);
        assertThat(parse("selectorSystem { " + places + ", limits { maxFrameBytes: 65536, maxDecodedBytes: 1M,"
                + " maxDepth: 32 } }").limits()).isEqualTo(DecodingLimits.DEFAULTS.withMaxFrameBytes(65_536)
                .withMaxDecodedBytes(1 << 20).withMaxDepth(32));
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", limits { maxFrameBytes: 10 } }"))
                .hasMessage("places.conf:1: selectorSystem.limits: maxFrameBytes is at least 1024, not 10");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", limits { maxFrames: 10 } }"))
                .hasMessageStartingWith("places.conf:1: selectorSystem.limits.maxFrames: unknown key");
    }

    @Test
    void theFailureTimeoutIsADurationOfAtLeast100Milliseconds() {
        String places = "init { place: p0, hostname: localhost, port: 5000 }";
        assertThat(parse("selectorSystem { " + places + " }").failureTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(parse("selectorSystem { " + places + ", failureTimeout: 2500ms }").failureTimeout())
                .isEqualTo(Duration.ofMillis(2500));
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", failureTimeout: soon }"))
                .hasMessageStartingWith("places.conf:1: selectorSystem.failureTimeout: a duration (10s, 1500ms), got"
                        + " 'soon'");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", failureTimeout: 10ms }"))
                .hasMessage("places.conf:1: selectorSystem.failureTimeout: at least 100 ms, not PT0.01S");
    }

    @Test
    void theBootstrapTimeoutIsAPositiveDurationOf60SecondsByDefault() {
        String places = "init { place: p0, hostname: localhost, port: 5000 }";
        assertThat(parse("selectorSystem { " + places + " }").bootstrapTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(parse("selectorSystem { " + places + ", bootstrapTimeout: 5m }").bootstrapTimeout())
                .isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", bootstrapTimeout: later }"))
                .hasMessageStartingWith("places.conf:1: selectorSystem.bootstrapTimeout: a duration (10s, 1500ms),"
                        + " got 'later'");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", bootstrapTimeout: 0s }"))
                .hasMessageStartingWith("places.conf:1: selectorSystem.bootstrapTimeout:");
    }

    @Test
    void theSshSectionIsReadWithItsDefaultsAndItsFilesAreChecked() throws Exception {
        String places = "init { place: p0, hostname: localhost, port: 5000 }";
        assertThat(parse("selectorSystem { " + places + " }").ssh()).isNull();
        Path key = Files.writeString(dir.resolve("id_test"), "a key");
        SshSettings ssh = parse("selectorSystem { " + places + ", ssh { user: alice, port: 2222, identityFiles: [\""
                + key + "\"], agentSocket: \"" + dir.resolve("agent") + "\", knownHosts: \"" + dir.resolve("known")
                + "\", java: /opt/jdk/bin/java, directory: /srv/stage, connectTimeout: 3s, keepAlive: 5s } }").ssh();
        assertThat(ssh).isEqualTo(new SshSettings("alice", 2222, List.of(key), dir.resolve("agent"),
                dir.resolve("known"), "/opt/jdk/bin/java", "/srv/stage", Duration.ofSeconds(3),
                Duration.ofSeconds(5)));
        SshSettings defaults = parse("selectorSystem { " + places + ", ssh { identityFiles: [\"" + key
                + "\"] } }").ssh();
        assertThat(defaults.user()).isEqualTo(System.getProperty("user.name"));
        assertThat(defaults.port()).isEqualTo(22);
        assertThat(defaults.knownHosts()).isEqualTo(Path.of(System.getProperty("user.home"), ".ssh", "known_hosts"));
        assertThat(defaults.java()).isEqualTo("java");
        assertThat(defaults.directory()).isEqualTo(".switchboard/staging");
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.keepAlive()).isEqualTo(Duration.ofSeconds(15));
        assertThat(parse("selectorSystem { " + places + ", ssh { identityFiles: [\"" + key + "\"], agentSocket: \"\","
                + " directory: \"~/stage\" } }").ssh()).satisfies(s -> {
                    assertThat(s.agentSocket()).as("\"\": no agent").isNull();
                    assertThat(s.directory()).as("~/ is the remote home").isEqualTo("stage");
                });
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", ssh { identityFiles: [\"" + key + "\"],"
                + " keepAlive: 0s } }")).hasMessage("places.conf:1: selectorSystem.ssh.keepAlive: a positive duration,"
                + " got '0s'");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", ssh { identityFiles: [\""
                + dir.resolve("missing") + "\"] } }"))
                .hasMessage("places.conf:1: selectorSystem.ssh.identityFiles[0]: no such file " + dir.resolve("missing"));
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", ssh { password: secret } }"))
                .hasMessageStartingWith("places.conf:1: selectorSystem.ssh.password: unknown key");
        assertThatThrownBy(() -> parse("selectorSystem { " + places + ", ssh { port: 0, identityFiles: [\"" + key
                + "\"] } }")).hasMessage("places.conf:1: selectorSystem.ssh.port: a port is 1 to 65535, not 0");
    }

    @Test
    void aPlaceMayListenElsewhereThanWhereItIsReached() {
        PlacesConfig config = parse("""
                selectorSystem {
                  init { place: p0, hostname: "127.0.0.1", port: 5000 }
                  remote: [
                    { place: p1, hostname: "127.0.0.2", port: 6001, bind: "127.0.0.3:7001" },
                    { place: p2, hostname: "127.0.0.2", port: 6002, bind: "0.0.0.0" },
                    { place: p3, hostname: "127.0.0.2", port: 6003, bind: "[::]:7003" }
                  ]
                }
                """);
        assertThat(config.places()).extracting(PlacesConfig.Place::bindHostname, PlacesConfig.Place::bindPort)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("127.0.0.1", 5000),
                        org.assertj.core.groups.Tuple.tuple("127.0.0.3", 7001),
                        org.assertj.core.groups.Tuple.tuple("0.0.0.0", 6002),
                        org.assertj.core.groups.Tuple.tuple("::", 7003));
        assertThatThrownBy(() -> parse("selectorSystem { init { place: p0, hostname: localhost, port: 5000,"
                + " bind: \"a:b:c\" } }")).hasMessage("places.conf:1: selectorSystem.init.bind: where the place"
                + " listens, host or host:port (0.0.0.0:7100, [::]:7100), not 'a:b:c'");
    }
}
