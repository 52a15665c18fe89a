package dev.switchboard.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * The mailboxes of a {@link Selector}: several queues, each guarded, and a ready bitmap from which the next
 * mailbox is selected in O(1).
 *
 * <h2>Overview</h2>
 * Three bitmaps, one bit per mailbox, packed in 64-bit words:
 * <ul>
 *   <li>{@code nonEmpty}: the queue may hold messages. Senders set the bit after enqueueing (only if it is not set
 *       already); the consumer clears it lazily, when a poll finds the queue empty, then re-checks the queue and
 *       sets it again if a message slipped in. A busy mailbox therefore costs no bitmap write per message.</li>
 *   <li>{@code manual}: the mailbox is enabled by {@code enable}/{@code disable} (all enabled at first).</li>
 *   <li>{@code guardOk}: the mailbox's declarative guard held when last evaluated (all ones where there is no
 *       guard).</li>
 * </ul>
 * A mailbox is <em>ready</em> when all three bits are set. With up to 64 mailboxes the ready set is one
 * AND of three words and a trailing-zero count. With more (up to {@value #MAX_MAILBOXES}), a {@code summary}
 * word has a bit per 64-mailbox word that may hold a ready mailbox; a search visits set summary bits only, and
 * clears a bit it finds stale (re-checking, then restoring it, against a racing setter), so a stale bit is
 * visited at most once: selection stays O(1) amortised.
 *
 * <p>A selector with at most {@value #DIRECT_SCAN_MAX} mailboxes keeps no {@code nonEmpty} bitmap: it asks the
 * queues themselves, in selection order, among the enabled ones. That costs a look at up to that many queues
 * per message, and saves what the bitmap costs whenever a queue runs empty and fills again: an atomic write by
 * the consumer, a re-check, and an atomic write by the next sender, all on one word every sender touches.
 * A server selector that its clients keep draining and refilling (a dictionary, a buffer, a mall) goes
 * through that cycle for nearly every message; a one-mailbox selector then costs what a plain actor costs.
 *
 * <h2>Implementation notes</h2>
 * Every change that can make a mailbox ready (a message arrives; a mailbox is enabled; a guard opens) sets its
 * own bit with an atomic read-modify-write and then reads the other bits; two such changes racing on one mailbox
 * therefore see each other (each writes, then reads what the other wrote), and at least one of them marks the
 * summary and signals the selector. A sender that finds its {@code nonEmpty} bit already set skips the
 * read-modify-write: its enqueue precedes that read, which precedes the consumer's clearing, which precedes the
 * consumer's re-check of the queue, so the consumer finds the message. {@code guardOk} is written only by the
 * selector's own processing (single writer); {@code manual} by the processing and the tasks it spawned.
 *
 * <p>Each mailbox is a {@link MailboxQueue}: padded like JCTools' queue, so that a producer and the consumer of
 * one mailbox stay off each other's cache lines (unpadded JCTools queues made joins 1.6 to 1.9 times slower),
 * but with all the producer's fields together, so that a sender spreading its messages over many mailboxes
 * misses once per queue rather than twice. One arrival queue per selector, sorted by the consumer, and
 * linked-node queues were measured too and lost (docs/benchmarks.md).
 *
 * <p>The bitmaps and {@code last} (the mailbox served last, written by the consumer) are one {@code long[]}:
 * <pre>
 * index                 what                                  written by
 * [0, NON_EMPTY)        padding                               (a bitmap selector's only)
 * NON_EMPTY + w         nonEmpty word w                       senders; the consumer when a queue runs empty
 * next PAD              padding                               (a bitmap selector's only)
 * manualAt + w          manual word w                         the processing and the tasks it spawned
 * guardAt + w           guardOk word w                        the processing
 * lastAt                last                                  the consumer (plain: confined to it)
 * last PAD              padding
 * </pre>
 * Senders read this object's fields, the queue table and a bitmap selector's {@code nonEmpty} on every send; the
 * consumer writes {@code manual} (a join disables a mailbox per message) and {@code last} (after nearly every
 * message of a selector that takes its mailboxes in turn). On one cache line, each such write would cost the
 * sender's next read a miss to the other core (decision 032). So the consumer's words have a line of padding
 * after them, and a bitmap selector's {@code nonEmpty} a line on either side. A direct-scan selector has no
 * padding before its words, so that an idle selector of two mailboxes stays within its footprint
 * (architecture.md); {@link #create} allocates the array before this object, which puts the selector's own
 * fields in front of it, as long as the collector has not moved them apart.
 *
 * <p>A mailbox's queue (about 360 bytes with its first buffer) is created by the first message sent to it: until
 * then the mailbox costs its slot in {@code queues} (4 bytes with compressed oops) and its bits. The sender that
 * finds the slot empty installs a queue with a CAS on the slot (compareAndExchange: a volatile write of a fully
 * constructed queue); a sender that loses the race uses the winner's, read from the CAS's witness. Every read of
 * a slot is a volatile read ({@link #queue}), and an empty slot reads as an empty queue. The arguments above
 * still hold, since a sender installs the queue before its enqueue, and that enqueue (a CAS on the queue's
 * producer index) before its reads and writes of the bitmaps and of the selector's status: whoever reads the
 * producer index after it in the synchronization order also reads the installed queue.
 */
final class GuardedMailboxes implements SelectorMailboxes, SelectionPolicy.ReadySet {
    /** Mailboxes the two-level bitmap can hold. */
    static final int MAX_MAILBOXES = 64 * 64;
    /**
     * Up to this many mailboxes, selection looks at the queues directly instead of a nonEmpty bitmap. Measured
     * (ForkJoinThroughput with 8 mailboxes fed round robin): at 8 the scans of empty queues already cost more
     * than the bitmap's upkeep; at 1 to 3 (servers, buffers, reader-writer selectors) the bitmap's upkeep costs
     * 10 to 20% of the time of a server that its clients drain and refill (one mailbox).
     */
    static final int DIRECT_SCAN_MAX = 4;

    private static final VarHandle BITS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle QUEUES = MethodHandles.arrayElementVarHandle(MailboxQueue[].class);
    private static final VarHandle SUMMARY;

    static {
        try {
            SUMMARY = MethodHandles.lookup().findVarHandle(GuardedMailboxes.class, "summary", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Longs of padding in {@link #bitmaps} before a bitmap selector's {@code nonEmpty}: 64 bytes with the header. */
    static final int PAD_FIRST = 6;
    /** Longs of padding (64 bytes) after the consumer's words, and between them and {@code nonEmpty}. */
    static final int PAD = 8;
    /** Where the {@code nonEmpty} words start in {@link #bitmaps} (a bitmap selector's only). */
    static final int NON_EMPTY = PAD_FIRST;

    private final int count;
    private final int words;
    /** The mailboxes' queues; a slot is null until its mailbox's first message (see the class notes). */
    private final MailboxQueue[] queues;
    /** The bitmaps and the consumer's {@code last}, in one array laid out as the class notes' table says. */
    private final long[] bitmaps;
    /** Where the words of {@code manual} and {@code guardOk} start in {@link #bitmaps}, and where {@code last} is. */
    private final int manualAt;
    private final int guardAt;
    private final int lastAt;
    /** Bit w: word w may hold a ready mailbox. Used only when there is more than one word. */
    private volatile long summary;

    /** Whether emptiness is read from the queues ({@link #DIRECT_SCAN_MAX}); then {@code nonEmpty} is unused. */
    private final boolean direct;

    private final SelectionPolicy policy;
    private final BuiltInPolicy builtIn;
    /** Declarative guards; confined to the selector's processing. */
    private BooleanSupplier[] guards;
    /** The mailbox whose guard was evaluated last (a failure names it); confined to the selector's processing. */
    private int lastGuard = -1;
    private int guardCount;

    /**
     * The mailboxes of a selector: the bitmaps' array is allocated first, so that while the objects stay where they
     * were made it lies between the selector and this object (see the class notes).
     */
    static GuardedMailboxes create(int count, SelectionPolicy policy) {
        return new GuardedMailboxes(count, policy, new long[bitmapsLength(count)]);
    }

    private GuardedMailboxes(int count, SelectionPolicy policy, long[] bitmaps) {
        this.count = count;
        this.words = words(count);
        this.queues = new MailboxQueue[count];
        this.direct = count <= DIRECT_SCAN_MAX;
        this.manualAt = manualAt(count, words);
        this.guardAt = manualAt + words;
        this.lastAt = guardAt + words;
        this.bitmaps = bitmaps;
        for (int w = 0; w < words; w++) {
            bitmaps[manualAt + w] = wordMask(w);
            bitmaps[guardAt + w] = -1L;
        }
        bitmaps[lastAt] = -1;
        this.policy = policy;
        this.builtIn = policy instanceof BuiltInPolicy b ? b : null;
        VarHandle.releaseFence();            // publish the initial bitmaps with the selector
    }

    private static int words(int count) {
        if (count < 1 || count > MAX_MAILBOXES) {
            throw new IllegalArgumentException("a selector has between 1 and " + MAX_MAILBOXES
                    + " mailboxes, not " + count);
        }
        return (count + 63) >>> 6;
    }

    /** Where {@code manual} starts in the bitmaps' array: after a bitmap selector's nonEmpty words and padding. */
    private static int manualAt(int count, int words) {
        return count <= DIRECT_SCAN_MAX ? 0 : NON_EMPTY + words + PAD;
    }

    /** The length of the bitmaps' array (the class notes' table): then manual, guardOk, last and padding. */
    private static int bitmapsLength(int count) {
        int words = words(count);
        return manualAt(count, words) + 2 * words + 1 + PAD;
    }

    /** The bits of word {@code w} that stand for existing mailboxes. */
    private long wordMask(int w) {
        int inWord = Math.min(64, count - (w << 6));
        return inWord == 64 ? -1L : (1L << inWord) - 1;
    }

    /** The queue of mailbox {@code index}, or null before its first message: a volatile read of the slot. */
    private MailboxQueue queue(int index) {
        return (MailboxQueue) QUEUES.getVolatile(queues, index);
    }

    /** Whether mailbox {@code index} holds no message (a snapshot). Any thread. */
    private boolean isEmpty(int index) {
        MailboxQueue q = queue(index);
        return q == null || q.isEmpty();
    }

    /** The first message's sender: installs the queue of mailbox {@code index}, or takes the one installed first. */
    private MailboxQueue createQueue(int index) {
        MailboxQueue fresh = new MailboxQueue(SingleMailbox.INITIAL_CAPACITY, SingleMailbox.MAX_CAPACITY);
        MailboxQueue won = (MailboxQueue) QUEUES.compareAndExchange(queues, index, null, fresh);
        return won != null ? won : fresh;
    }

    /** For tests: where NON_EMPTY, manual, guardOk and last are in the bitmaps array, and its length. */
    int[] layout() {
        return new int[] {NON_EMPTY, manualAt, guardAt, lastAt, bitmaps.length};
    }

    /** How many mailboxes have a queue (have been sent a message); for tests. */
    int queuesCreated() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (queue(i) != null) {
                n++;
            }
        }
        return n;
    }

    private long ready(int w) {
        return (long) BITS.getVolatile(bitmaps, NON_EMPTY + w) & enabled(w);
    }

    private long enabled(int w) {
        return (long) BITS.getVolatile(bitmaps, manualAt + w) & (long) BITS.getVolatile(bitmaps, guardAt + w);
    }

    // ------------------------------------------------------------------------------------------ senders

    @Override
    public boolean offer(Object envelope, int index) {
        MailboxQueue q = queue(index);
        if (!(q != null ? q : createQueue(index)).offer(envelope)) {
            return false;
        }
        if (direct) {
            return true;
        }
        int w = index >>> 6;
        long bit = 1L << index;
        if (((long) BITS.getVolatile(bitmaps, NON_EMPTY + w) & bit) == 0) {
            BITS.getAndBitwiseOr(bitmaps, NON_EMPTY + w, bit);
        }
        if (words > 1 && (ready(w) & bit) != 0) {
            markSummary(w);
        }
        return true;
    }

    private void markSummary(int w) {
        long b = 1L << w;
        if ((summary & b) == 0) {
            SUMMARY.getAndBitwiseOr(this, b);
        }
    }

    // ------------------------------------------------------------------------------------------ guards

    /** Enables or disables mailbox {@code index}; returns whether it was disabled and is now enabled. */
    @Override
    public boolean setEnabled(int index, boolean enabled) {
        return setEnabledBits(index >>> 6, 1L << index, enabled);
    }

    /** Enables or disables several mailboxes, one read-modify-write per word; returns whether one was enabled. */
    @Override
    public boolean setEnabled(int[] indices, boolean enabled) {
        boolean any = false;
        long[] masks = new long[words];
        for (int i : indices) {
            masks[i >>> 6] |= 1L << i;
        }
        for (int w = 0; w < words; w++) {
            if (masks[w] != 0) {
                any |= setEnabledBits(w, masks[w], enabled);
            }
        }
        return any;
    }

    /**
     * Sets or clears {@code bits} of {@code manual[w]}; returns whether a bit was newly set. Idempotent calls are
     * common (a selector re-enabling what is enabled after every message) and cost only the read: such a call
     * takes effect at that read, as if it had run just before whatever write of another task of the selector
     * follows, and a bit that was already set needs no signal (whoever set it signalled).
     */
    private boolean setEnabledBits(int w, long bits, boolean enabled) {
        long now = (long) BITS.getVolatile(bitmaps, manualAt + w);
        if (enabled) {
            if ((now & bits) == bits) {
                return false;
            }
            long old = (long) BITS.getAndBitwiseOr(bitmaps, manualAt + w, bits);
            if ((old & bits) == bits) {
                return false;
            }
            if (words > 1 && (ready(w) & bits) != 0) {
                markSummary(w);
            }
            return true;
        }
        if ((now & bits) != 0) {
            BITS.getAndBitwiseAnd(bitmaps, manualAt + w, ~bits);
        }
        return false;
    }

    /** Sets every mailbox's enable flag: all enabled, or all disabled except {@code except} (none if -1). */
    @Override
    public void setAll(boolean enabled, int except) {
        for (int w = 0; w < words; w++) {
            long bits = enabled ? wordMask(w) : (except >= 0 && except >>> 6 == w ? 1L << except : 0L);
            BITS.setVolatile(bitmaps, manualAt + w, bits);
            if (words > 1 && ready(w) != 0) {
                markSummary(w);
            }
        }
    }

    @Override
    public boolean isEnabled(int index) {
        long bit = 1L << index;
        int w = index >>> 6;
        return (enabled(w) & bit) != 0;
    }

    /** Whether no mailbox is enabled (imperatively and by its guard). */
    @Override
    public boolean allDisabled() {
        for (int w = 0; w < words; w++) {
            if ((enabled(w) & wordMask(w)) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void guard(int index, BooleanSupplier predicate, boolean evaluate) {
        if (guards == null) {
            guards = new BooleanSupplier[count];
        }
        if (guards[index] == null && predicate != null) {
            guardCount++;
        } else if (guards[index] != null && predicate == null) {
            guardCount--;
        }
        guards[index] = predicate;
        applyGuard(index, predicate == null || !evaluate || predicate.getAsBoolean());
    }

    @Override
    public boolean hasGuards() {
        return guardCount > 0;
    }

    /** Re-evaluates every guard, on the selector's own processing; a guard that throws propagates. */
    @Override
    public void evaluateGuards() {
        BooleanSupplier[] g = guards;
        for (int i = 0; i < count; i++) {
            if (g[i] != null) {
                lastGuard = i;
                applyGuard(i, g[i].getAsBoolean());
            }
        }
    }

    @Override
    public int lastGuardEvaluated() {
        return lastGuard;
    }

    private void applyGuard(int index, boolean open) {
        int w = index >>> 6;
        long bit = 1L << index;
        long old = (long) BITS.getVolatile(bitmaps, guardAt + w);
        long now = open ? old | bit : old & ~bit;
        if (now != old) {
            BITS.setVolatile(bitmaps, guardAt + w, now);     // single writer: the selector's processing
            if (words > 1 && open && (ready(w) & bit) != 0) {
                markSummary(w);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ the consumer

    @Override
    public Object poll() {
        if (direct && builtIn != null) {
            return pollDirect();
        }
        for (;;) {
            int i = select();
            if (i < 0) {
                return null;
            }
            MailboxQueue q = queue(i);
            Object e = q != null ? q.poll() : null;
            if (e != null) {
                served(i);
                return e;
            }
            clearNonEmpty(i);                      // the queue ran empty: clear its bit (lazily, here)
        }
    }

    /** {@link #poll()} of a direct-scan selector with a built-in policy: the enabled queues, in policy order. */
    private Object pollDirect() {
        long enabled = enabled(0);
        if (enabled == 0) {
            return null;
        }
        if (builtIn == BuiltInPolicy.PRIORITY) {
            return pollFirst(enabled);
        }
        int last = last();
        int from = last + 1 >= count ? 0 : last + 1;      // round robin: after the mailbox served last
        long atOrAfter = enabled & (-1L << from);
        Object e = pollFirst(atOrAfter);
        return e != null ? e : pollFirst(enabled & ~atOrAfter);
    }

    private Object pollFirst(long candidates) {
        for (long m = candidates; m != 0; m &= m - 1) {
            int i = Long.numberOfTrailingZeros(m);
            MailboxQueue q = queue(i);
            Object e = q != null ? q.poll() : null;
            if (e != null) {
                served(i);
                return e;
            }
        }
        return null;
    }

    private void clearNonEmpty(int i) {
        if (direct) {
            return;                                // no bitmap: the queue itself says it is empty
        }
        int w = i >>> 6;
        long bit = 1L << i;
        BITS.getAndBitwiseAnd(bitmaps, NON_EMPTY + w, ~bit);
        if (!isEmpty(i)) {                         // a sender slipped in after the poll: undo
            BITS.getAndBitwiseOr(bitmaps, NON_EMPTY + w, bit);
        }
    }

    private int select() {
        if (builtIn == BuiltInPolicy.PRIORITY) {
            return firstFrom(0);
        }
        if (builtIn == BuiltInPolicy.ROUND_ROBIN) {
            return nextFromWrapping(last() + 1);
        }
        if (!hasReady()) {
            return -1;
        }
        int i = policy.select(this, last());
        if (i < 0 || i >= count) {
            throw new IllegalStateException("the selection policy " + policy + " chose mailbox " + i
                    + ", which does not exist: the selector's mailboxes are 0 to " + (count - 1));
        }
        if (!contains(i)) {
            throw new IllegalStateException("the selection policy " + policy + " chose mailbox " + i
                    + ", which is not ready (" + (isEmpty(i) ? "it is empty" : "it is disabled")
                    + "): it must choose one of the ready mailboxes, " + readyList());
        }
        return i;
    }

    /** The ready mailboxes, for the message of a policy's wrong choice: "[0, 3]", at most 16 of them. */
    private String readyList() {
        StringBuilder b = new StringBuilder("[");
        int m = firstFrom(0);
        for (int shown = 0; m >= 0 && shown < 16; shown++, m = firstFrom(m + 1)) {
            b.append(shown == 0 ? "" : ", ").append(m);
        }
        return b.append(m >= 0 ? ", ...]" : "]").toString();
    }

    /** The lowest ready mailbox at or after {@code from}, or -1. */
    private int firstFrom(int from) {
        if (from >= count) {
            return -1;
        }
        if (direct) {
            for (long m = enabled(0) & (-1L << from); m != 0; m &= m - 1) {
                int i = Long.numberOfTrailingZeros(m);
                if (!isEmpty(i)) {
                    return i;
                }
            }
            return -1;
        }
        int wFrom = from >>> 6;
        if (words == 1) {
            long r = ready(0) & (-1L << from);
            return r == 0 ? -1 : Long.numberOfTrailingZeros(r);
        }
        long candidates = summary & (-1L << wFrom);
        while (candidates != 0) {
            int w = Long.numberOfTrailingZeros(candidates);
            candidates &= candidates - 1;
            long r = ready(w);
            if (r == 0) {
                cleanSummary(w);
                continue;
            }
            if (w == wFrom) {
                r &= -1L << from;                  // only mailboxes at or after `from` in the first word
            }
            if (r != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(r);
            }
        }
        return -1;
    }

    private int nextFromWrapping(int from) {
        int i = firstFrom(from >= count ? 0 : from);
        return i >= 0 || from == 0 ? i : firstFrom(0);
    }

    /** Clears a summary bit found stale, then restores it if the word became ready meanwhile. */
    private void cleanSummary(int w) {
        long b = 1L << w;
        SUMMARY.getAndBitwiseAnd(this, ~b);
        if (ready(w) != 0) {
            SUMMARY.getAndBitwiseOr(this, b);
        }
    }

    @Override
    public boolean hasReady() {
        if (direct) {
            for (long m = enabled(0); m != 0; m &= m - 1) {
                if (!isEmpty(Long.numberOfTrailingZeros(m))) {
                    return true;
                }
            }
            return false;
        }
        if (words == 1) {
            return ready(0) != 0;
        }
        long candidates = summary;
        while (candidates != 0) {
            int w = Long.numberOfTrailingZeros(candidates);
            if (ready(w) != 0) {
                return true;
            }
            candidates &= candidates - 1;
        }
        return false;
    }

    @Override
    public Object pollAny() {
        for (int i = 0; i < count; i++) {
            MailboxQueue q = queue(i);
            Object e = q != null ? q.poll() : null;
            if (e != null) {
                served(i);                          // for the bound's count: which mailbox it left
                return e;
            }
        }
        return null;
    }

    @Override
    public boolean hasAny() {
        for (int i = 0; i < count; i++) {
            if (!isEmpty(i)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int size() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            n += size(i);
        }
        return n;
    }

    @Override
    public int size(int index) {
        MailboxQueue q = queue(index);
        return q != null ? q.size() : 0;
    }

    @Override
    public String internals() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            MailboxQueue q = queue(i);
            sb.append(i == 0 ? "" : "; ").append("mailbox ").append(i).append(isEnabled(i) ? "" : " (disabled)")
                    .append(": ").append(q != null ? q.internals() : "no queue yet");
        }
        return sb.toString();
    }

    /** The mailbox the message being processed came from. */
    @Override
    public int lastServed() {
        return last();
    }

    @Override
    public void serving(int index) {
        served(index);
    }

    /** The mailbox the last message came from, -1 before the first; confined to the consumer. */
    private int last() {
        return (int) bitmaps[lastAt];
    }

    private void served(int index) {
        if (bitmaps[lastAt] != index) {
            bitmaps[lastAt] = index;               // on change only: a direct selector's line may be read by senders
        }
    }

    // ------------------------------------------------------------------------------------------ ReadySet

    @Override
    public int mailboxes() {
        return count;
    }

    @Override
    public boolean contains(int index) {
        if (index < 0 || index >= count) {
            return false;
        }
        if (direct) {
            return (enabled(0) & (1L << index)) != 0 && !isEmpty(index);
        }
        return (ready(index >>> 6) & (1L << index)) != 0;
    }

    @Override
    public int first() {
        return firstFrom(0);
    }

    @Override
    public int nextFrom(int index) {
        return nextFromWrapping(Math.floorMod(index, count));
    }

    @Override
    public String toString() {
        return "ReadySet" + java.util.stream.IntStream.range(0, count).filter(this::contains).boxed().toList();
    }
}
