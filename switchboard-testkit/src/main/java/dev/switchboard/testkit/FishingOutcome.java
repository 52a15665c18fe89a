package dev.switchboard.testkit;

import java.util.Objects;

/**
 * What {@link TestProbe#fishForMessage} does with a message its function was given: the fish is complete, keep
 * fishing (the message counts as one of the fish), ignore the message and keep fishing, or fail the test.
 */
public sealed interface FishingOutcome {
    /** The message is the last of the fish: {@code fishForMessage} returns every fish so far, this one included. */
    static FishingOutcome complete() {
        return Complete.INSTANCE;
    }

    /** The message is one of the fish, and more are to come. */
    static FishingOutcome keepFishing() {
        return KeepFishing.INSTANCE;
    }

    /** The message is not one of the fish (a heartbeat, say): it is dropped, and fishing goes on. */
    static FishingOutcome ignore() {
        return Ignore.INSTANCE;
    }

    /** The message must not come: the test fails with {@code why} and the message. */
    static FishingOutcome fail(String why) {
        return new Fail(Objects.requireNonNull(why, "why"));
    }

    /** The fish is complete ({@link #complete()}). */
    record Complete() implements FishingOutcome {
        static final Complete INSTANCE = new Complete();
    }

    /** One of the fish, more to come ({@link #keepFishing()}). */
    record KeepFishing() implements FishingOutcome {
        static final KeepFishing INSTANCE = new KeepFishing();
    }

    /** Not one of the fish ({@link #ignore()}). */
    record Ignore() implements FishingOutcome {
        static final Ignore INSTANCE = new Ignore();
    }

    /**
     * A failed fish.
     *
     * @param why what the test says was wrong with the message
     */
    record Fail(String why) implements FishingOutcome {
    }
}
