package dev.switchboard.examples;

import java.io.PrintStream;

/** A runnable example: writes what it does to {@code out}. */
@FunctionalInterface
public interface Example {
    void run(PrintStream out);
}
