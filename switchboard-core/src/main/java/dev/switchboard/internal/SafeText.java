package dev.switchboard.internal;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The text of the program's objects (messages, failures) for diagnostics: what their {@code toString()} returns,
 * or, when it throws or returns null, their class and identity and what went wrong. Never throws, so that a
 * diagnostic never replaces the failure it reports.
 */
public final class SafeText {
    /** What a log line says in place of a stack trace that is not {@link #printable}. */
    public static final String NO_STACK_TRACE = "(no stack trace: the text of the failure or of one of its causes"
            + " cannot be made: a toString(), getMessage() or getCause() throws)";

    /** Causes and suppressed failures looked at, at most, by {@link #printable}. */
    private static final int MAX_LOOKED_AT = 64;

    private SafeText() {
    }

    /** {@code String.valueOf(o)}, or what it could not be. */
    public static String of(Object o) {
        if (o == null) {
            return "null";
        }
        String s;
        try {
            s = o.toString();
        } catch (Throwable t) {
            return identity(o) + " (its toString() threw " + className(t) + ")";
        }
        return s != null ? s : identity(o) + " (its toString() returned null)";
    }

    /** {@link #of}, cut to {@code max} characters (the last three "..."). */
    public static String brief(Object o, int max) {
        String s = of(o);
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /**
     * Whether a logger can print {@code t}'s stack trace: the {@code toString()} of it, its causes and its suppressed
     * failures return without throwing. A logger given one that throws would fail and print nothing.
     */
    public static boolean printable(Throwable t) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        return printable(t, seen);
    }

    private static boolean printable(Throwable t, Set<Throwable> seen) {
        if (t == null || !seen.add(t) || seen.size() > MAX_LOOKED_AT) {
            return true;
        }
        try {
            if (t.toString() == null) {
                return false;
            }
            for (Throwable s : t.getSuppressed()) {
                if (!printable(s, seen)) {
                    return false;
                }
            }
            return printable(t.getCause(), seen);
        } catch (Throwable broken) {
            return false;
        }
    }

    private static String identity(Object o) {
        return o.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(o));
    }

    private static String className(Throwable t) {
        try {
            return t.getClass().getName();
        } catch (Throwable noMemory) {
            return "an exception";
        }
    }
}
