package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Where a selector's bitmaps and its consumer's {@code last} are (the table in {@link GuardedMailboxes}'s notes):
 * a bitmap selector's {@code nonEmpty} words, which every sender reads, lie at least a cache line (64 bytes) from
 * the words its consumer writes and from both ends of the array; a direct-scan selector's three words (manual,
 * guardOk, last) have a line after them.
 * What the padding buys (a join's producer and adder on two workers) is measured in decision 032, not here.
 */
class SelectorLayoutTest {
    static final int LINE = 64;
    static final int ARRAY_HEADER = 16;

    @Test
    void aBitmapSelectorsNonEmptyWordsAreALineFromTheConsumersWordsAndFromTheArraysEnds() {
        for (int mailboxes : new int[] {GuardedMailboxes.DIRECT_SCAN_MAX + 1, 11, 64, 65, 300}) {
            GuardedMailboxes boxes = GuardedMailboxes.create(mailboxes, BuiltInPolicy.ROUND_ROBIN);
            int words = (mailboxes + 63) / 64;
            int[] l = boxes.layout();
            int nonEmpty = l[0];
            int manual = l[1];
            int guardOk = l[2];
            int last = l[3];
            int length = l[4];

            assertThat(ARRAY_HEADER + nonEmpty * 8).as("%d mailboxes: bytes before nonEmpty", mailboxes)
                    .isGreaterThanOrEqualTo(LINE);
            assertThat((manual - (nonEmpty + words)) * 8).as("%d mailboxes: bytes from nonEmpty to manual", mailboxes)
                    .isGreaterThanOrEqualTo(LINE);
            assertThat(guardOk).isEqualTo(manual + words);
            assertThat(last).isEqualTo(guardOk + words);
            assertThat((length - (last + 1)) * 8).as("%d mailboxes: bytes after last", mailboxes)
                    .isGreaterThanOrEqualTo(LINE);
        }
    }

    @Test
    void aDirectScanSelectorKeepsThreeWordsAndALineAfterThemAndStillServesInTurn() {
        for (int mailboxes = 1; mailboxes <= GuardedMailboxes.DIRECT_SCAN_MAX; mailboxes++) {
            GuardedMailboxes boxes = GuardedMailboxes.create(mailboxes, BuiltInPolicy.ROUND_ROBIN);
            assertThat(boxes.layout()).as("%d mailboxes", mailboxes).containsExactly(
                    GuardedMailboxes.NON_EMPTY, 0, 1, 2, 3 + GuardedMailboxes.PAD);
            assertThat(GuardedMailboxes.PAD * 8).isGreaterThanOrEqualTo(LINE);
        }
        GuardedMailboxes boxes = GuardedMailboxes.create(3, BuiltInPolicy.ROUND_ROBIN);
        for (int i = 0; i < 3; i++) {
            boxes.offer("a" + i, i);
            boxes.offer("b" + i, i);
        }
        assertThat(boxes.lastServed()).isEqualTo(-1);
        StringBuilder order = new StringBuilder();
        for (Object e; (e = boxes.poll()) != null; ) {
            order.append(e).append(boxes.lastServed());
        }
        assertThat(order).hasToString("a00a11a22b00b11b22");
    }
}
