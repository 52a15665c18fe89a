package dev.switchboard.task;

import dev.switchboard.internal.Durations;
import java.io.Serial;
import java.time.Duration;
import java.util.List;

/**
 * Thrown by {@link TaskRuntime#finish(Duration, TaskBody)} when the finish did not end within its timeout. The
 * message is the hang diagnostic: which actors never exited and which tasks still wait for data-driven futures.
 * The tasks and actors keep running; the finish only stops waiting for them.
 */
public final class FinishTimeoutException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient List<String> openItems;

    public FinishTimeoutException(Duration timeout, String report, List<String> openItems) {
        super("finish did not end within " + format(timeout) + ": " + report);
        this.openItems = List.copyOf(openItems);
    }

    private static String format(Duration d) {
        return Durations.of(d.toMillis());
    }

    /** The actors and awaiting tasks that kept the finish open, one line each. */
    public List<String> openItems() {
        return openItems;
    }
}
