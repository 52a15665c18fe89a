package dev.switchboard.task;

import java.io.Serial;
import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when work is given to a {@link TaskRuntime} that has been {@linkplain TaskRuntime#close() closed} (an
 * {@code async}, a {@code finish}, an actor's {@code start()}), by a {@code finish} that was waiting when its
 * runtime was closed, by a {@code get()} that a task or a finish body was blocked in, and for the iterations of a
 * parallel loop the close skipped. The message names the runtime, who closed it and, for a finish, what was still
 * open. A finish that the close ended throws its own, with the others its work threw suppressed in it.
 *
 * <pre>{@code
 * runtime.close();
 * runtime.async(() -> work());   // RuntimeClosedException: runtime 'jobs' is closed (closed by thread 'main' ...)
 * }</pre>
 */
public final class RuntimeClosedException extends RejectedExecutionException {
    @Serial
    private static final long serialVersionUID = 1L;

    public RuntimeClosedException(String message) {
        super(message);
    }
}
