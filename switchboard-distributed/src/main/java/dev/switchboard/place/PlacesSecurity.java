package dev.switchboard.place;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * How the places of a configured program prove to each other that they belong to it: the {@code security}
 * section of the configuration file.
 *
 * <pre>
 * selectorSystem {
 *   ...
 *   security { mode: hmac, secretFile: "/run/secrets/switchboard" }        # the default mode
 *   # or: security { mode: tls, keyStore: "certs/{place}.p12", keyStorePasswordFile: "certs/password",
 *   #                trustStore: "certs/ca.p12", trustStorePasswordFile: "certs/password" }
 * }
 * </pre>
 *
 * <ul>
 *   <li><b>{@code hmac}</b> (the default): every place reads the same secret from {@code secretFile} (or the file
 *       the environment variable {@value #SECRET_FILE_VARIABLE} names), at least 16 bytes, readable by its owner
 *       only. Each connection's handshake proves both sides know it, over fresh nonces, without sending it. This
 *       authenticates the peer, not the traffic after the handshake: on a network others share, integrity and
 *       secrecy need TLS.</li>
 *   <li><b>{@code tls}</b>: mutual TLS. Each place presents the key and certificate of its {@code keyStore}
 *       (PKCS#12; {@code {place}} in the path is replaced by the place's name) and accepts the peers its
 *       {@code trustStore} trusts whose certificate is for the name of the place they claim to be (its common
 *       name or a DNS subject alternative name). Passwords are read from files, never from the configuration.</li>
 *   <li><b>{@code unauthenticated-insecure}</b>: no proof at all; anyone who can reach a place's port can join the
 *       program, create actors and stop it. Each place logs a warning when it starts.</li>
 * </ul>
 * Relative paths are resolved against the configuration file's directory.
 *
 * @param mode                   how the places prove who they are
 * @param secretFile             {@code hmac}: the shared secret's file, or null for the one the environment
 *                               variable {@value #SECRET_FILE_VARIABLE} names
 * @param keyStore               {@code tls}: this place's key and certificate, {@code {place}} in it replaced
 * @param keyStorePasswordFile   {@code tls}: the key store's password, or null for none
 * @param trustStore             {@code tls}: the certificates the places trust
 * @param trustStorePasswordFile {@code tls}: the trust store's password, or null for none
 */
public record PlacesSecurity(Mode mode, Path secretFile, Path keyStore, Path keyStorePasswordFile, Path trustStore,
                             Path trustStorePasswordFile) {
    /** The environment variable that names the secret's file, when the configuration does not. */
    public static final String SECRET_FILE_VARIABLE = "SWITCHBOARD_SECRET_FILE";

    /** How the places prove who they are. */
    public enum Mode {
        /** A shared secret, proved by each side of each connection. */
        HMAC("hmac"),
        /** Mutual TLS, each place's certificate bound to its name. */
        TLS("tls"),
        /** Nothing: anyone who reaches a port joins. */
        UNAUTHENTICATED_INSECURE("unauthenticated-insecure");

        private final String key;

        Mode(String key) {
            this.key = key;
        }

        /** The mode's name in the configuration file. */
        public String key() {
            return key;
        }
    }

    /** @throws NullPointerException if {@code mode} is null */
    public PlacesSecurity {
        Objects.requireNonNull(mode, "mode");
    }

    /**
     * This place's {@link Authentication}: reads the secret, or the stores and their passwords.
     *
     * @param origin the configuration file, for errors
     * @throws PlacesConfigException if a file is missing, unreadable, readable by others (the secret), or not
     *         what it should be
     */
    Authentication authentication(String placeName, String origin) {
        return switch (mode) {
            case HMAC -> Authentication.hmac(readSecret(secretFile != null ? secretFile
                    : secretFromEnvironment(origin)));
            case TLS -> {
                Path keys = Path.of(keyStore.toString().replace("{place}", placeName));
                char[] keyPassword = password(keyStorePasswordFile);
                char[] trustPassword = password(trustStorePasswordFile);
                try {
                    yield Authentication.tls(keys, keyPassword, trustStore, trustPassword);
                } catch (IllegalArgumentException e) {
                    throw new PlacesConfigException("place " + placeName + ": " + e.getMessage(), e);
                } finally {
                    Arrays.fill(keyPassword, '\0');
                    Arrays.fill(trustPassword, '\0');
                }
            }
            case UNAUTHENTICATED_INSECURE -> {
                System.getLogger(PlacesSecurity.class.getName()).log(System.Logger.Level.WARNING, "place "
                        + placeName + " runs UNAUTHENTICATED (security.mode = unauthenticated-insecure): anyone who"
                        + " can reach its port can join the program, create actors in it and stop it");
                yield Authentication.unauthenticated();
            }
        };
    }

    /** The secret's file the environment names, when the configuration names none. */
    private static Path secretFromEnvironment(String origin) {
        String file = System.getenv(SECRET_FILE_VARIABLE);
        if ((file == null || file.isBlank()) && origin.startsWith("the environment")) {
            throw new PlacesConfigException(SECRET_FILE_VARIABLE + " is not set: the places prove they belong to the"
                    + " program with a shared secret; give the file a Kubernetes Secret is mounted as, or one only you"
                    + " can read (or SWITCHBOARD_SECURITY=tls with SWITCHBOARD_KEY_STORE and SWITCHBOARD_TRUST_STORE)");
        }
        if (file == null || file.isBlank()) {
            throw new PlacesConfigException(origin + ": selectorSystem.security.secretFile is missing: the places"
                    + " prove they belong to the program with a shared secret (mode: hmac, the default). Give a file"
                    + " only you can read, of at least 16 bytes (head -c 32 /dev/urandom | base64 > secret; chmod 600"
                    + " secret), there or in the environment variable " + SECRET_FILE_VARIABLE + "; or use mode: tls"
                    + " with keyStore and trustStore");
        }
        return Path.of(file.trim());
    }

    /**
     * The secret in {@code file}: its bytes, without trailing white space. As PostgreSQL does for its keys, a file
     * of the process's own user must be its owner's only ({@code 0600}, {@code 0400}); one owned by root may also be
     * read by its group ({@code 0640}, {@code 0440}: a Kubernetes Secret mounted with an {@code fsGroup}).
     *
     * @throws PlacesConfigException if it cannot be read, others can read it, or it is under 16 bytes
     */
    static byte[] readSecret(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new PlacesConfigException("the places' secret file " + file + (Files.isDirectory(file)
                    ? " is a directory, not a file" : " does not exist"));
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        try {
            if (posix != null) {
                var attributes = posix.readAttributes();
                Set<PosixFilePermission> others = EnumSet.copyOf(attributes.permissions());
                others.retainAll(EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ,
                        PosixFilePermission.OTHERS_WRITE));
                if (attributes.permissions().contains(PosixFilePermission.GROUP_READ)
                        && !attributes.owner().getName().equals("root")) {
                    others.add(PosixFilePermission.GROUP_READ);
                }
                if (!others.isEmpty()) {
                    throw new PlacesConfigException("the places' secret file " + file + " can be read or written by"
                            + " others (" + others + "); make it its owner's only: chmod 600 " + file);
                }
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).stripTrailing();
            byte[] secret = text.getBytes(StandardCharsets.UTF_8);
            if (secret.length < Authentication.MIN_SECRET_BYTES) {
                throw new PlacesConfigException("the places' secret in " + file + " has " + secret.length
                        + " bytes; it needs at least " + Authentication.MIN_SECRET_BYTES + " (e.g. head -c 32"
                        + " /dev/urandom | base64 > " + file + ")");
            }
            return secret;
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new PlacesConfigException("the places' secret file " + file + " is not text (UTF-8): write the"
                    + " secret as text, e.g. head -c 32 /dev/urandom | base64 > " + file, e);
        } catch (IOException e) {
            throw new PlacesConfigException("the places' secret file " + file + " cannot be read: " + e, e);
        }
    }

    private static char[] password(Path file) {
        if (file == null) {
            return new char[0];
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8).stripTrailing().toCharArray();
        } catch (IOException e) {
            throw new PlacesConfigException("the password file " + file + " cannot be read: " + e, e);
        }
    }
}
