package dev.switchboard.place;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.x500.X500Principal;

/**
 * How the places of a program prove to each other that they belong to it: a shared secret ({@link Mode#HMAC}, the
 * {@link Handshake}'s challenge and response), mutual TLS ({@link Mode#TLS}: both sides present a certificate their
 * trust store accepts, whose name is the place's name in the configuration), or nothing
 * ({@link Mode#UNAUTHENTICATED}, only when a configuration asks for it by name).
 */
final class Authentication {
    /** The modes, in the order of their number in a {@code Hello}. */
    enum Mode {
        UNAUTHENTICATED, HMAC, TLS
    }

    /** The fewest bytes of a secret. */
    static final int MIN_SECRET_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Mode mode;
    private final byte[] secret;
    private final SslContext server;
    private final SslContext client;

    private Authentication(Mode mode, byte[] secret, SslContext server, SslContext client) {
        this.mode = mode;
        this.secret = secret;
        this.server = server;
        this.client = client;
    }

    /**
     * Places that share {@code secret}.
     *
     * @throws IllegalArgumentException if it has fewer than {@value #MIN_SECRET_BYTES} bytes
     */
    static Authentication hmac(byte[] secret) {
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("a secret for the places has at least " + MIN_SECRET_BYTES
                    + " bytes, not " + secret.length);
        }
        return new Authentication(Mode.HMAC, secret.clone(), null, null);
    }

    /** A fresh random secret of 32 bytes. */
    static byte[] newSecret() {
        byte[] s = new byte[32];
        RANDOM.nextBytes(s);
        return s;
    }

    /** A fresh nonce for a handshake. */
    static byte[] nonce() {
        byte[] n = new byte[Handshake.NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * Mutual TLS: this place's key and certificate from {@code keyStore}, the certificates it trusts from
     * {@code trustStore}, both PKCS#12.
     *
     * @throws IllegalArgumentException if a store cannot be read, or holds no key or no certificate
     */
    static Authentication tls(Path keyStore, char[] keyStorePassword, Path trustStore, char[] trustStorePassword) {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keyStore, keyStorePassword, "key store"), keyStorePassword);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(trustStore, trustStorePassword, "trust store"));
            SslContext server = SslContextBuilder.forServer(keys).trustManager(trust).clientAuth(ClientAuth.REQUIRE)
                    .build();
            // no host name check: a place's certificate is checked against its name in the configuration instead
            SslContext client = SslContextBuilder.forClient().keyManager(keys).trustManager(trust)
                    .endpointIdentificationAlgorithm(null).build();
            return new Authentication(Mode.TLS, null, server, client);
        } catch (IOException | GeneralSecurityException e) {
            String why = e instanceof java.nio.file.NoSuchFileException missing ? "there is no file "
                    + missing.getFile() : e instanceof java.nio.file.AccessDeniedException denied
                    ? "this user may not read " + denied.getFile() : e.getMessage();
            throw new IllegalArgumentException("cannot set up TLS with key store " + keyStore + " and trust store "
                    + trustStore + ": " + why, e);
        }
    }

    private static KeyStore load(Path file, char[] password, String what) throws IOException,
            GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password);
        }
        if (store.size() == 0) {
            throw new IllegalArgumentException("the " + what + " " + file + " is empty");
        }
        return store;
    }

    /** Places that prove nothing: anyone who can reach a place's port can join the program. */
    static Authentication unauthenticated() {
        return new Authentication(Mode.UNAUTHENTICATED, null, null, null);
    }

    Mode mode() {
        return mode;
    }

    /** The shared secret (HMAC mode only). */
    byte[] secret() {
        return Objects.requireNonNull(secret, "no secret in mode " + mode);
    }

    /** A TLS handler for a new connection ({@code accepting}: this side accepted it), or null if not TLS. */
    SslHandler sslHandler(ByteBufAllocator allocator, boolean accepting) {
        if (mode != Mode.TLS) {
            return null;
        }
        return (accepting ? server : client).newHandler(allocator);
    }

    /**
     * The names a TLS peer's certificate is for: its subject's common name and its DNS subject alternative names.
     *
     * @throws SSLPeerUnverifiedException if the peer presented no certificate
     */
    static List<String> certificateNames(SSLSession session) throws SSLPeerUnverifiedException {
        Certificate[] chain = session.getPeerCertificates();
        return chain.length > 0 && chain[0] instanceof X509Certificate x ? certificateNames(x) : List.of();
    }

    /** The names {@code x} is for: its subject's common names and its DNS subject alternative names. */
    static List<String> certificateNames(X509Certificate x) {
        List<String> names = new ArrayList<>();
        try {                                          // RDNs parsed, not split: a value may hold an escaped comma
            for (javax.naming.ldap.Rdn rdn : new javax.naming.ldap.LdapName(
                    x.getSubjectX500Principal().getName(X500Principal.RFC2253)).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    names.add(String.valueOf(rdn.getValue()));
                }
            }
        } catch (javax.naming.InvalidNameException e) {
            // no common name to go by: the DNS names below are what is left
        }
        try {
            if (x.getSubjectAlternativeNames() != null) {
                for (List<?> san : x.getSubjectAlternativeNames()) {
                    if (Integer.valueOf(2).equals(san.get(0))) {      // dNSName
                        names.add(String.valueOf(san.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // the common name is what is left to go by
        }
        return names.stream().distinct().toList();
    }

    @Override
    public String toString() {
        return switch (mode) {
            case HMAC -> "a shared secret";
            case TLS -> "mutual TLS";
            case UNAUTHENTICATED -> "no authentication";
        };
    }
}
