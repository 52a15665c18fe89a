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
 * This JVM's class path as the jars it is staged as on another host. Each jar of the class path is sent as it is; a
 * directory of classes (a build's output) is packed into a jar first, its entries sorted and dated alike, so the same
 * classes make the same bytes. Every jar is named on the host by its contents ({@code <sha-256 prefix>-<name>.jar}):
 * a jar that is there already is not sent again, and two programs, or two versions of one, never overwrite each
 * other's. A jar is written under a temporary name and renamed when complete, so a run cut short leaves no
 * half-written jar under a real name.
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

    /** The jars that carry {@code classPath} (entries separated by the platform's separator; missing ones skipped). */
    static List<Artifact> of(String classPath) {
        List<Artifact> artifacts = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath();
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
        List<String> paths = new ArrayList<>();
        int sent = 0;
        long bytes = 0;
        for (Artifact a : artifacts) {
            String target = dir + "/" + a.name();
            paths.add(target);
            if (exists(sftp, target)) {
                continue;
            }
            String part = target + ".part-" + UUID.randomUUID();
            try (InputStream in = a.content().open(); OutputStream out = sftp.write(part)) {
                in.transferTo(out);
            }
            try {
                sftp.rename(part, target);
            } catch (SftpException raced) {            // another launch staged the same jar meanwhile
                sftp.remove(part);
                if (!exists(sftp, target)) {
                    throw raced;
                }
            }
            sent++;
            bytes += a.size();
        }
        return new Staged(paths, sent, bytes);
    }

    private static void makeDirectories(SftpClient sftp, String directory) throws IOException {
        StringBuilder path = new StringBuilder(directory.startsWith("/") ? "/" : "");
        for (String part : directory.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            path.append(part);
            if (!exists(sftp, path.toString())) {
                sftp.mkdir(path.toString());
            }
            path.append('/');
        }
    }

    private static boolean exists(SftpClient sftp, String path) throws IOException {
        try {
            sftp.stat(path);
            return true;
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return false;
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
