package dev.switchboard.actor;

import dev.switchboard.spi.MessageProcessing;
import java.util.Arrays;

/**
 * The messages a dispatch policy started inline ({@link LetterPlacement}), from their start to their report: they
 * run one after another on the thread of the turn that started them, right after it, and the next turn gives the
 * policy their reports. Owns the queue of those messages and the one processing object they run through; touches
 * nothing else. Confined to the holder of the actor's token, like the turns.
 */
final class InlineLetters {
    /*
     * Implementation notes. One array of pairs: from index `run` to `count`, the messages started and not run yet
     * (envelope, ticket); before `run`, at even indexes, the reports of the ones run (a ticket, or a Finished
     * record), which the next turn gives the policy. A message is marked run before it runs, so that whatever it
     * throws it never runs twice; a report is taken out before it is given, for the same reason.
     */
    private final ActorCore<?> actor;
    private Object[] queue = new Object[16];
    private int count;
    private int run;
    /** The processing of the message that runs now (or of one taken without the policy), reused. */
    private final Processing processing = new Processing();

    InlineLetters(ActorCore<?> actor) {
        this.actor = actor;
    }

    /** Whether a message started inline is waiting to run or to be reported. */
    boolean isEmpty() {
        return count == 0;
    }

    /** The messages started inline and not yet reported. */
    int pending() {
        return count >> 1;
    }

    /** Whether messages started inline wait to run. */
    boolean hasUnrun() {
        return run < count;
    }

    /** Whether messages have run and wait for their reports. */
    boolean hasReports() {
        return run != 0;
    }

    void add(Object envelope, Object ticket) {
        if (count + 2 > queue.length) {
            queue = Arrays.copyOf(queue, queue.length * 2);
        }
        queue[count++] = envelope;
        queue[count++] = ticket;
    }

    /**
     * Runs the messages that have not run, in the order they were started, on this thread; each one's report takes
     * its place. A message is a sample of what running inline costs only while no task of the actor runs beside
     * it. Returns how many ran.
     */
    int runAll(PolicyDispatch dispatch) {
        return run(dispatch, Integer.MAX_VALUE);
    }

    /**
     * Runs at most {@code limit} of the messages that have not run, as {@link #runAll} does; the others wait for
     * the next turn, in their order. Returns how many ran.
     */
    int run(PolicyDispatch dispatch, int limit) {
        Object[] q = queue;
        Processing m = processing;
        int ran = 0;
        while (run < count && ran < limit) {
            int i = run;
            m.envelope = q[i];
            m.ticket = q[i + 1];
            q[i + 1] = null;
            run = i + 2;
            boolean alongsideTasks = dispatch.started() != pending();
            q[i] = dispatch.processStarted(m, m.envelope, m.ticket, false,
                    alongsideTasks ? PolicyDispatch.BESIDE_TASKS : PolicyDispatch.INLINE);
            ran++;
        }
        m.envelope = m.ticket = null;
        return ran;
    }

    /** Gives the policy the reports of the messages that have run. */
    void reportAll(PolicyDispatch dispatch) {
        Object[] q = queue;
        int done = run;
        int i = 0;
        try {
            while (i < done) {
                Object f = q[i];
                q[i] = null;
                i += 2;
                dispatch.report(f);
            }
        } finally {
            // Whatever a report threw, the reports given stay given; those after it are still due.
            int left = count - i;
            if (i != 0) {
                System.arraycopy(q, i, q, 0, left);
                Arrays.fill(q, left, count, null);
            }
            count = left;
            run = done - i;
        }
    }

    /** The processing object for {@code envelope}, taken from the mailbox without the policy; reused. */
    MessageProcessing one(Object envelope) {
        processing.envelope = envelope;
        processing.ticket = null;
        return processing;
    }

    /** A message run inline, as the policy's {@code process} hook sees it while it runs. */
    private final class Processing implements MessageProcessing {
        Object envelope;
        Object ticket;

        @Override
        public Object message() {
            return Dispatch.messageOf(envelope);
        }

        @Override
        public Object ticket() {
            return ticket;
        }

        @Override
        public void process() {
            Dispatch.invoke(actor, message());
        }
    }
}
