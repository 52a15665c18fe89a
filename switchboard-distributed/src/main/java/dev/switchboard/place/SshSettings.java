package dev.switchboard.place;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How place 0 starts the other places of a configuration on their hosts over SSH: the {@code ssh} section of the
 * configuration file ([DistSelectors] §3: "the runtime stages all executable on all remote nodes and initiates the
 * bootstrap sequence").
 *
 * <pre>
 * selectorSystem {
 *   init   { place: p0, hostname: "10.0.0.1", port: 5000 }
 *   remote: [ { place: p1, hostname: "10.0.0.2", port: 5000 } ]
 *   ssh {
 *     user: "alice"                          # default: the user running place 0
 *     port: 22                               # the hosts' SSH port
 *     identityFiles: ["~/.ssh/id_ed25519"]   # default: ~/.ssh/id_ed25519, id_ecdsa, id_rsa, those that exist
 *     agentSocket: "/run/user/1000/agent"    # default: $SSH_AUTH_SOCK ("": no agent); its keys are offered first
 *     knownHosts: "~/.ssh/known_hosts"       # the hosts' keys; a host not in it, or with another key, is refused
 *     java: "/usr/lib/jvm/jdk-21/bin/java"   # default: java on the remote PATH; 21 or newer
 *     directory: ".switchboard/staging"      # where the jars are staged (relative, or ~/: the remote home)
 *     connectTimeout: 10s
 *     keepAlive: 15s                         # how often a quiet session asks the host whether it is there
 *   }
 * }
 * </pre>
 *
 * With an {@code ssh} section, the place that runs the program's body (the {@code init} place, started with the
 * file and no {@code --place}) stages its class path on every other host (each jar once, under a name made from its
 * contents, so a second run sends nothing that is there already), starts each other place there, and runs the
 * program as on local places. Keys come from the agent or from key files, never from passwords: a key file that is
 * encrypted belongs in the agent ({@code ssh-add}). The places of such a launch prove they belong to it with a
 * secret made for the run and passed to each over its SSH channel (no {@code secretFile} needed); with
 * {@code security.mode: tls}, every host needs the key and trust stores at the configured paths. A remote place
 * ends when its SSH channel does: if place 0 ends, however it ends, so do the others.
 *
 * @param user           the user to log in as
 * @param port           the hosts' SSH port
 * @param identityFiles  private key files (OpenSSH or PEM, not encrypted), offered after the agent's keys
 * @param agentSocket    the SSH agent's socket, or null for none
 * @param knownHosts     the {@code known_hosts} file the hosts' keys are checked against
 * @param java           the java command on the hosts
 * @param directory      where the class path is staged on the hosts
 * @param connectTimeout how long connecting to a host and logging in may take
 * @param keepAlive      how often a session asks its host whether it is there; three unanswered asks end it (and
 *                       so its places). A session is never closed for being idle: the places talk over their own
 *                       connections, and their SSH sessions may carry nothing for hours
 */
public record SshSettings(String user, int port, List<Path> identityFiles, Path agentSocket, Path knownHosts,
                          String java, String directory, Duration connectTimeout, Duration keepAlive) {
    /** @throws NullPointerException if a value other than {@code agentSocket} is null */
    public SshSettings {
        Objects.requireNonNull(user, "user");
        identityFiles = List.copyOf(identityFiles);
        Objects.requireNonNull(knownHosts, "knownHosts");
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (keepAlive.isNegative() || keepAlive.isZero()) {
            throw new IllegalArgumentException("the SSH keep-alive interval must be positive, not " + keepAlive);
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("an SSH port is 1 to 65535, not " + port);
        }
    }
}
