package dev.switchboard.internal;

/**
 * An effect an interceptor may hold ({@link Interceptor#interceptEffect}) that needs to hear when it will never run:
 * an ask's request, whose future is then failed rather than left waiting.
 */
public interface DroppableEffect extends Runnable {
    /** The effect will not run: {@code why} says so to whoever waits for it. */
    void drop(String why);
}
