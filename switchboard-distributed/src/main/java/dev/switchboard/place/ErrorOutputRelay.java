package dev.switchboard.place;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A started place's error output, as its launcher relays it: each line goes to the launcher's standard error as it
 * comes, prefixed with where it came from ({@code [p1] ...}), so that what the place logs (failed actors, dead
 * letters, stalls) and prints there is seen where the program was started; its last lines are kept, in memory,
 * for the message of a place that fails.
 *
 * <p>Implementation notes. A daemon thread reads the stream to its end (the place's exit, or its channel's close)
 * and writes each line with one {@code println} on {@code System.err} as it is then, so lines of several places
 * never mix within a line.
 */
final class ErrorOutputRelay {
    /** How many of its last lines are kept. */
    static final int KEPT_LINES = 5;

    private final Deque<String> last = new ArrayDeque<>();
    private final Thread reader;

    /**
     * Starts relaying {@code errors}, each line prefixed with {@code [prefix]}.
     *
     * @param thread the reading thread's name
     */
    ErrorOutputRelay(InputStream errors, String prefix, String thread) {
        this.reader = new Thread(() -> relay(errors, "[" + prefix + "] "), thread);
        reader.setDaemon(true);
        reader.start();
    }

    private void relay(InputStream errors, String prefix) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(errors, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (last) {
                    last.addLast(line);
                    if (last.size() > KEPT_LINES) {
                        last.removeFirst();
                    }
                }
                System.err.println(prefix + line);
            }
        } catch (IOException e) {
            // the place is gone, or its channel closed: nothing more comes
        }
    }

    /**
     * Its last lines, joined with {@code " | "}, or {@link PlaceLauncher#NO_ERROR_OUTPUT}; once the place has
     * {@code ended}, what it wrote to the end, if the stream ends within {@code millis}.
     */
    String tail(boolean ended, long millis) {
        if (ended) {
            try {
                reader.join(millis);                       // what it said before it ended
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (last) {
            return last.isEmpty() ? PlaceLauncher.NO_ERROR_OUTPUT : String.join(" | ", last);
        }
    }
}
