package dev.switchboard.stress;

import dev.switchboard.Switchboard;
import dev.switchboard.actor.Selector;

/**
 * The selectors the selector stress tests race against, with a mailbox count of the test's choosing: up to four
 * mailboxes a selector reads emptiness from its queues, above that from a bitmap, and each way is tested.
 */
final class StressSelectors {
    /** Few mailboxes: emptiness is read from the queues. */
    static final int DIRECT = 2;
    /** More mailboxes: emptiness is kept in the nonEmpty bitmap. */
    static final int BITMAP = 8;

    private StressSelectors() {
    }

    /** Exits after its second message; the last mailbox is the one the tests use. */
    static final class TwoMessages extends Selector<Integer, dev.switchboard.actor.Selector.Numbered> {

        TwoMessages(int mailboxes) {
            super(mailboxes);
        }

        int last() {
            return mailboxCount() - 1;
        }

        @Override
        protected void process(Integer m) {
            if (processedCount() == 1) {
                exit();
            }
        }
    }

    /** The last mailbox starts disabled; an "open" message in mailbox 0 spawns a task that enables it. */
    static final class Gate extends Selector<String, dev.switchboard.actor.Selector.Numbered> {

        volatile int seenInLast;

        Gate(int mailboxes) {
            super(mailboxes);
            disable(mailboxes - 1);
        }

        int last() {
            return mailboxCount() - 1;
        }

        @Override
        protected void process(String m) {
            if (m.equals("open")) {
                Switchboard.async(() -> enable(last()));
            } else {
                seenInLast++;
                exit();
            }
        }
    }
}
