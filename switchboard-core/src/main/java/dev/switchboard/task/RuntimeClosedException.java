package dev.switchboard.task;

import java.io.Serial;
import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when work is given to a {@link TaskRuntime} that has been {@linkplain TaskRuntime#close() closed} (an
 * {@code async}, a {@code finish}, an actor's {@code start()}), and by a {@code finish} that was waiting when its
 * runtime was closed. The message names the runtime, who closed it and, for a finish, what was still open.
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
