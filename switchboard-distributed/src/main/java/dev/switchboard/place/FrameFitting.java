package dev.switchboard.place;

/**
 * Fits the places' own frames to what every place accepts: the texts the runtime writes itself (a failure's message
 * and stack trace, a hang report's part, a close's reason) are cut to {@link DecodingLimits#maxStringLength()} and
 * to a share of {@link DecodingLimits#maxFrameBytes()}, saying so, and a {@link Frames.Shutdown} keeps the stack
 * traces of its failures while they fit. A program's message is never cut: one too large fails at its sender.
 */
final class FrameFitting {
    /** What the runtime's texts of one frame may take of a frame, at most: a quarter (3 bytes a character). */
    private static final int FRAME_SHARE = 4;

    private FrameFitting() {
    }

    /** {@code frame}, or a copy whose runtime texts fit {@code limits}. */
    static Object fit(Object frame, DecodingLimits limits) {
        int most = Math.min(limits.maxStringLength(), limits.maxFrameBytes() / FRAME_SHARE);
        return switch (frame) {
            case Frames.Failed f -> fitted(f, most);
            case Frames.Shutdown s -> fitted(s, most, limits.maxFrameBytes() / FRAME_SHARE);
            case Frames.Report r -> longer(r.text(), most)
                    ? new Frames.Report(r.id(), r.place(), cut(r.text(), most)) : r;
            case Frames.Closing c -> longer(c.reason(), most) ? new Frames.Closing(cut(c.reason(), most)) : c;
            case Frames.Ended e -> longer(e.failureMessage(), most)
                    ? new Frames.Ended(e.id(), e.reason(), e.failureClass(), cut(e.failureMessage(), most)) : e;
            case Frames.Answer a -> longer(a.failureMessage(), most) ? new Frames.Answer(a.id(), a.reply(),
                    a.failureClass(), cut(a.failureMessage(), most), a.noReply()) : a;
            default -> frame;
        };
    }

    private static Frames.Failed fitted(Frames.Failed f, int most) {
        if (!longer(f.message(), most) && !longer(f.stackTrace(), most) && !longer(f.exceptionClass(), most)
                && !longer(f.actor(), most)) {
            return f;
        }
        return new Frames.Failed(f.place(), cut(f.exceptionClass(), most), cut(f.message(), most),
                cut(f.actor(), most), cut(f.stackTrace(), most), f.lostConnection());
    }

    /** The failures' texts while {@code budget} characters last; after that, their class and a short message. */
    private static Frames.Shutdown fitted(Frames.Shutdown s, int most, int budget) {
        Frames.Failed[] fitted = new Frames.Failed[s.failures().length];
        long left = budget;
        for (int i = 0; i < fitted.length; i++) {
            Frames.Failed f = fitted(s.failures()[i], most);
            long size = length(f.exceptionClass()) + length(f.message()) + length(f.actor()) + length(f.stackTrace());
            if (size > left) {
                f = new Frames.Failed(f.place(), cut(f.exceptionClass(), 200), cut(f.message(), 200),
                        cut(f.actor(), 200), "", f.lostConnection());
                size = length(f.exceptionClass()) + length(f.message()) + length(f.actor());
            }
            left -= size;
            fitted[i] = f;
        }
        return new Frames.Shutdown(fitted, s.failureCount());
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }

    private static boolean longer(String text, int most) {
        return text != null && text.length() > most;
    }

    /** {@code text}, cut to {@code most} characters with a note saying so, if it is longer. */
    static String cut(String text, int most) {
        if (!longer(text, most)) {
            return text;
        }
        String note = " [... cut: " + text.length() + " characters, more than a frame between places carries]";
        return note.length() >= most ? text.substring(0, most) : text.substring(0, most - note.length()) + note;
    }
}
