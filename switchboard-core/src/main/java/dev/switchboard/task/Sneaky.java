package dev.switchboard.task;

/** Rethrows a collected failure as itself, checked or not, as a finish promises. */
final class Sneaky {
    private Sneaky() {
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> E rethrow(Throwable t) throws E {
        throw (E) t;
    }
}
