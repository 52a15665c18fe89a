package dev.switchboard.examples.selectors;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.examples.Example;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * [Selectors], Fig. 10 and 11: joining streams from several sources without sequence numbers or a dictionary. The
 * adder has one mailbox per source, numbered like the sources ({@code Selector<Item, Numbered>}): source
 * {@code s} sends with {@code send(s, item)}. Each source's items arrive in order in its mailbox; the adder takes
 * one item per source per round by disabling a mailbox once it has its item.
 * <ul>
 *   <li>any order: items of a round are taken as they come; all mailboxes are enabled again when the round is
 *       complete;</li>
 *   <li>round robin: only the next source's mailbox is enabled at any time.</li>
 * </ul>
 */
public final class JoinPatterns implements Example {
    record Item(int value) {
    }

    /** Fig. 11, top: accepts the items of a round in any order. */
    static final class AdderAnyOrder extends Selector<Item, Numbered> {
        private final int[] items;
        private final ActorRef<Integer> next;
        private int matched;
        private int roundsLeft;

        AdderAnyOrder(int sources, int rounds, ActorRef<Integer> next) {
            super(sources);
            this.items = new int[sources];
            this.next = next;
            this.roundsLeft = rounds;
        }

        @Override
        protected void process(Item item) {
            items[currentMailbox()] = item.value();
            disable(currentMailbox());                    // one item per source in this round
            if (++matched == items.length) {
                next.send(sum(items));
                matched = 0;
                enableAll();                              // the next round
                if (--roundsLeft == 0) {
                    exit();
                }
            }
        }
    }

    /** Fig. 11, bottom: accepts the items of a round in source order. */
    static final class AdderRoundRobin extends Selector<Item, Numbered> {
        private final int[] items;
        private final ActorRef<Integer> next;
        private int matched;
        private int roundsLeft;

        AdderRoundRobin(int sources, int rounds, ActorRef<Integer> next) {
            super(sources);
            this.items = new int[sources];
            this.next = next;
            this.roundsLeft = rounds;
            disableAllExcept(0);                          // expect the first source's item
        }

        @Override
        protected void process(Item item) {
            items[matched] = item.value();
            disable(matched);
            if (++matched == items.length) {
                next.send(sum(items));
                matched = 0;
                if (--roundsLeft == 0) {
                    exit();
                    return;
                }
            }
            enable(matched);                              // the next source, round robin
        }
    }

    static int sum(int[] values) {
        int s = 0;
        for (int v : values) {
            s += v;
        }
        return s;
    }

    /** Collects the joined sums; exits after {@code expected} of them. */
    static final class Collector extends Actor<Integer> {
        final List<Integer> sums = new ArrayList<>();
        private final int expected;

        Collector(int expected) {
            this.expected = expected;
        }

        @Override
        protected void process(Integer sum) {
            sums.add(sum);
            if (sums.size() == expected) {
                exit();
            }
        }
    }

    /** Three sources send rounds 1..n concurrently; source s sends (s+1)*round in round `round`. */
    static List<Integer> join(boolean roundRobin, int rounds) {
        int sources = 3;
        Collector collector = new Collector(rounds);      // kept to read the sums afterwards
        finish(() -> {
            ActorRef<Integer> sums = collector.start();
            SelectorRef<Item, Numbered> adder = roundRobin ? new AdderRoundRobin(sources, rounds, sums).start()
                    : new AdderAnyOrder(sources, rounds, sums).start();
            for (int s = 0; s < sources; s++) {
                int source = s;
                async(() -> {                             // the sources run in parallel
                    for (int round = 1; round <= rounds; round++) {
                        adder.send(source, new Item((source + 1) * round));
                    }
                });
            }
        });
        return collector.sums;
    }

    @Override
    public void run(PrintStream out) {
        out.println("any order:   " + join(false, 5));
        out.println("round robin: " + join(true, 5));
        out.println("(round r sums 1r + 2r + 3r = 6r, whatever order the sources' items arrive in)");
    }

    public static void main(String[] args) {
        new JoinPatterns().run(System.out);
    }
}
