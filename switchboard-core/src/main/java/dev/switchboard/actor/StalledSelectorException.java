package dev.switchboard.actor;

import java.io.Serial;

/**
 * A started selector went idle with every mailbox disabled, not paused, and with no task it spawned still
 * running: nothing can enable a mailbox again, so it can never process another message. The selector is
 * terminated (its queued messages become dead letters) and this exception is reported to the finish it was
 * started in, instead of a silent hang.
 */
public final class StalledSelectorException extends IllegalStateException {
    @Serial
    private static final long serialVersionUID = 1L;

    public StalledSelectorException(String message) {
        super(message);
    }
}
