package dev.switchboard.place;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * This JVM's class path as the jars it is staged as on another host. Each jar of the class path (and of the module
 * path, and those a jar's manifest names) is sent as it is; a
 * directory of classes (a build's output) is packed into a jar first, its entries sorted and dated alike, so the same
 * classes make the same bytes. Every jar is named on the host by its contents ({@code <sha-256 prefix>-<name>.jar}):
 * a jar that is there already is not sent again, and two programs, or two versions of one, never overwrite each
 * other's; one whose size is not its contents' is staged again. A jar is written under a temporary name and renamed
 * when complete, so a run cut short leaves no half-written jar under a real name. A staging directory others can
 * write is refused: a jar someone else put there would run as this user.
 */
final class ClassPathStaging {
    /** The date every entry of a packed directory carries: the earliest a zip can say. */
    private static final long ENTRY_TIME = 315_532_800_000L + 86_400_000L;

    /** One jar to stage: its name on the host, and its bytes. */
    record Artifact(String name, long size, Content content) {
    }

    /** A jar's bytes, read again for each host. */
    @FunctionalInterface
    interface Content {
        InputStream open() throws IOException;
    }

    /** What staging on one host did: the jars' paths there, in class-path order, and what had to be sent. */
    record Staged(List<String> paths, int sent, long bytesSent) {
    }

    private ClassPathStaging() {
    }

    /**
     * The jars that carry this JVM's class path and module path, in order, with the jars a jar's manifest names
     * ({@code Class-Path}: {@code java -jar app.jar} and its {@code lib/}); missing entries are skipped.
     */
    static List<Artifact> ofThisJvm() {
        List<Path> entries = new ArrayList<>();
        for (String path : new String[] {System.getProperty("java.class.path"),
                System.getProperty("jdk.module.path")}) {
            if (path != null) {
                for (String entry : path.split(File.pathSeparator)) {
                    if (!entry.isBlank()) {
                        withManifestClassPath(Path.of(entry).toAbsolutePath().normalize(), entries);
                    }
                }
            }
        }
        return of(entries);
    }

    /** {@code entry}, then what its manifest's {@code Class-Path} names (relative to its directory), each once. */
    private static void withManifestClassPath(Path entry, List<Path> entries) {
        if (entries.contains(entry)) {
            return;
        }
        entries.add(entry);
        if (!Files.isRegularFile(entry)) {
            return;
        }
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(entry.toFile())) {
            java.util.jar.Manifest manifest = jar.getManifest();
            String classPath = manifest == null ? null
                    : manifest.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            if (classPath != null) {
                for (String relative : classPath.trim().split("\\s+")) {
                    if (!relative.isEmpty()) {
                        Path p = entry.getParent().resolve(java.net.URI.create(relative).getPath());
                        withManifestClassPath(p.toAbsolutePath().normalize(), entries);
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // not a jar, or a manifest the JVM would not follow either: the entry goes as it is
        }
    }

    /** The jars that carry {@code entries} (missing ones skipped). */
    static List<Artifact> of(List<Path> entries) {
        List<Artifact> artifacts = new ArrayList<>();
        for (Path p : entries) {
            try {
                if (Files.isDirectory(p)) {
                    byte[] jar = pack(p);
                    artifacts.add(new Artifact(sha256(new ByteArrayInputStream(jar)) + "-" + label(p) + ".jar",
                            jar.length, () -> new ByteArrayInputStream(jar)));
                } else if (Files.isRegularFile(p)) {
                    String hash;
                    try (InputStream in = Files.newInputStream(p)) {
                        hash = sha256(in);
                    }
                    String file = p.getFileName().toString();
                    artifacts.add(new Artifact(hash + "-" + (file.endsWith(".jar") ? file : file + ".jar"),
                            Files.size(p), () -> Files.newInputStream(p)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("the class path entry " + p + " cannot be read to stage it: " + e, e);
            }
        }
        return artifacts;
    }

    /**
     * Stages {@code artifacts} in {@code directory} (created if missing; relative: to the login's home) and returns
     * their absolute paths there.
     */
    static Staged stage(SftpClient sftp, String directory, List<Artifact> artifacts) throws IOException {
        makeDirectories(sftp, directory);
        String dir = sftp.canonicalPath(directory);
        SftpClient.Attributes attributes = sftp.stat(dir);
        if ((attributes.getPermissions() & 0022) != 0) {
            throw new IOException("the staging directory " + dir + " can be written by others (mode "
                    + Integer.toOctalString(attributes.getPermissions() & 0777) + "): a jar put there by someone else"
                    + " would run as this user; make it its owner's only (chmod go-w) or choose another");
        }
        List<String> paths = new ArrayList<>();
        int sent = 0;
        long bytes = 0;
        for (Artifact a : artifacts) {
            String target = dir + "/" + a.name();
            paths.add(target);
            Long size = size(sftp, target);
            if (size != null && size == a.size()) {
                continue;                             // there already: its name is its contents'
            }
            if (size != null) {                       // cut short, or damaged: staged again
                sftp.remove(target);
            }
            String part = target + ".part-" + UUID.randomUUID();
            boolean renamed = false;
            try {
                try (InputStream in = a.content().open(); OutputStream out = sftp.write(part)) {
                    in.transferTo(out);
                }
                sftp.rename(part, target);
                renamed = true;
            } catch (SftpException raced) {            // another launch staged the same jar meanwhile
                Long now = size(sftp, target);
                if (now == null || now != a.size()) {
                    throw raced;
                }
            } finally {
                if (!renamed) {
                    removeQuietly(sftp, part);
                }
            }
            sent++;
            bytes += a.size();
        }
        return new Staged(paths, sent, bytes);
    }

    private static void removeQuietly(SftpClient sftp, String path) {
        try {
            sftp.remove(path);
        } catch (IOException e) {
            // not there, or the session is gone
        }
    }

    private static void makeDirectories(SftpClient sftp, String directory) throws IOException {
        StringBuilder path = new StringBuilder(directory.startsWith("/") ? "/" : "");
        for (String part : directory.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            path.append(part);
            if (size(sftp, path.toString()) == null) {
                try {
                    sftp.mkdir(path.toString());
                } catch (SftpException e) {           // another launch made it meanwhile
                    if (size(sftp, path.toString()) == null) {
                        throw e;
                    }
                }
            }
            path.append('/');
        }
    }

    /** The size of what is at {@code path}, or null if nothing is. */
    private static Long size(SftpClient sftp, String path) throws IOException {
        try {
            return sftp.stat(path).getSize();
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return null;
            }
            throw e;
        }
    }

    /** A directory's classes as a jar: entries sorted by path, each dated {@link #ENTRY_TIME}. */
    static byte[] pack(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes)) {
            for (Path f : files) {
                JarEntry e = new JarEntry(directory.relativize(f).toString().replace(File.separatorChar, '/'));
                e.setTime(ENTRY_TIME);
                jar.putNextEntry(e);
                Files.copy(f, jar);
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** A name for a packed directory: {@code target/test-classes} of module m is {@code m-test-classes}. */
    private static String label(Path directory) {
        Path parent = directory.getParent();
        Path module = parent != null && parent.getFileName() != null && parent.getFileName().toString()
                .equals("target") ? parent.getParent() : parent;
        String base = module != null && module.getFileName() != null ? module.getFileName() + "-" : "";
        return (base + directory.getFileName()).replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private static String sha256(InputStream in) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (DigestInputStream d = new DigestInputStream(in, digest)) {
                d.transferTo(OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
