package dev.switchboard.bench.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The certificates of the remote benchmarks' TLS variants, made once per JVM by the JDK's {@code keytool} in a
 * temporary directory (removed at exit): a certificate authority, and for each of the two sides ({@code p0}, this
 * JVM; {@code p1}, the second) an EC P-256 key with a certificate for its name signed by it, in PKCS#12 stores
 * with one password. Both Switchboard's places and Pekko's Artery use the same files.
 */
final class RemoteCertificates {
    static final String PASSWORD = "bench-only-password";
    private static Path dir;

    private RemoteCertificates() {
    }

    /** The directory: {@code p0.p12}, {@code p1.p12}, {@code trust.p12} and {@code password}. */
    static synchronized Path directory() throws IOException, InterruptedException {
        if (dir == null) {
            Path d = Files.createTempDirectory("switchboard-bench-tls-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(d), "bench-tls-cleanup"));
            keytool(d, "-genkeypair", "-alias", "ca", "-dname", "CN=switchboard-bench-ca", "-ext", "bc:c", "-keyalg",
                    "EC", "-groupname", "secp256r1", "-validity", "2", "-keystore", "ca.p12", "-storetype", "PKCS12",
                    "-storepass", PASSWORD);
            keytool(d, "-exportcert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASSWORD, "-rfc", "-file",
                    "ca.pem");
            keytool(d, "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "trust.p12",
                    "-storetype", "PKCS12", "-storepass", PASSWORD);
            for (String name : List.of("p0", "p1")) {
                String store = name + ".p12";
                keytool(d, "-genkeypair", "-alias", "place", "-dname", "CN=" + name, "-keyalg", "EC", "-groupname",
                        "secp256r1", "-validity", "2", "-keystore", store, "-storetype", "PKCS12", "-storepass",
                        PASSWORD);
                keytool(d, "-certreq", "-alias", "place", "-keystore", store, "-storepass", PASSWORD, "-file",
                        name + ".csr");
                keytool(d, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASSWORD, "-infile",
                        name + ".csr", "-outfile", name + ".pem", "-validity", "2");
                keytool(d, "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", store,
                        "-storepass", PASSWORD);
                keytool(d, "-importcert", "-alias", "place", "-file", name + ".pem", "-keystore", store, "-storepass",
                        PASSWORD);
            }
            Files.writeString(d.resolve("password"), PASSWORD, StandardCharsets.UTF_8);
            dir = d;
        }
        return dir;
    }

    private static void keytool(Path d, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(d.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output.trim());
        }
    }

    private static void delete(Path d) {
        try (Stream<Path> files = Files.walk(d)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory: the system cleans it up in the end
        }
    }
}
