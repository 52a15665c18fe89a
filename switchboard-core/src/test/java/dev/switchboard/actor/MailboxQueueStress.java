package dev.switchboard.actor;

/** What the jcstress tests of {@link MailboxQueue} share: a bounded spinning poll and the outcome codes. */
final class MailboxQueueStress {
    private static final long LIMIT_NANOS = 2_000_000_000L;

    private MailboxQueueStress() {
    }

    /** Polls until an element arrives or two seconds passed; returns its number in {@code elements}, 0 if none. */
    static int pollCode(MailboxQueue q, Object[] elements) {
        Object e = q.poll();
        if (e == null) {
            long end = System.nanoTime() + LIMIT_NANOS;
            do {
                Thread.onSpinWait();
                e = q.poll();
            } while (e == null && System.nanoTime() < end);
            if (e == null) {
                return 0;
            }
        }
        for (int i = 0; i < elements.length; i++) {
            if (e == elements[i]) {
                return i + 1;
            }
        }
        return 99;                                   // not an element of this test
    }

    /** 1 if the queue is empty by every measure (isEmpty, size, poll), else 0. The consumer only. */
    static int drainedCode(MailboxQueue q) {
        return q.isEmpty() && q.size() == 0 && q.poll() == null ? 1 : 0;
    }
}
