package dev.switchboard.place;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * A place's JVM as the {@link PlaceLauncher} that started it sees it: a child process on this host, or a process on
 * another host behind an SSH channel ({@link SshPlaces}). The launcher talks to it over its standard input and
 * output ({@link PlaceMain}'s protocol); when its standard input ends, the place halts.
 */
interface PlaceProcess {
    /** Its standard input: the launcher's lines to the place. */
    OutputStream stdin();

    /** Its standard output: the place's control lines and what the program prints. */
    InputStream stdout();

    /** Whether it still runs (as far as this side knows). */
    boolean isAlive();

    /** Its exit status, or -1 while it runs or where it is not known. */
    int exitStatus();

    /** The last lines of its error output, for an error message. */
    String errorTail();

    /** Waits at most {@code seconds} for it to end; whether it did. */
    boolean waitFor(long seconds) throws InterruptedException;

    /** Ends it now (it cannot clean up). */
    void kill();

    /** Where it runs, for messages: {@code pid 1234}, {@code on host:22 over SSH}. */
    String describe();

    /** The local process, if it is one. */
    Optional<ProcessHandle> handle();
}
