package dev.switchboard.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;

/** A {@code System.Logger} that keeps what it is given: set as a runtime's failure log's logger in tests. */
public final class RecordingLogger implements System.Logger {
    /** One line logged. */
    public record Line(Level level, String text, Throwable cause) {}

    private final List<Line> lines = new ArrayList<>();

    @Override
    public String getName() {
        return "dev.switchboard";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public synchronized void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        lines.add(new Line(level, msg, thrown));
    }

    @Override
    public synchronized void log(Level level, ResourceBundle bundle, String format, Object... params) {
        lines.add(new Line(level, format, null));
    }

    /** The lines logged so far, oldest first. */
    public synchronized List<Line> lines() {
        return List.copyOf(lines);
    }
}
