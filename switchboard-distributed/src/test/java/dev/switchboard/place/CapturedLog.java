package dev.switchboard.place;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** For tests: what a logger (java.util.logging, where System.Logger goes) says at INFO or above, until closed. */
final class CapturedLog implements AutoCloseable {
    private final Logger logger;
    /** The messages logged, in order. */
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.INFO.intValue()) {
                lines.add(r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    /** Captures what the logger named after {@code owner} says. */
    CapturedLog(Class<?> owner) {
        logger = Logger.getLogger(owner.getName());
        logger.addHandler(handler);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
