package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * [DistSelectors], Fig. 4 and 5 ([Selectors], Fig. 11), on places: joining streams whose sources live on other places than
 * the joining selector, without sequence numbers or a dictionary. The adder has one mailbox per source, numbered
 * like the sources; source {@code s} sends its items with {@code send(s, item)}, across places. Each source's
 * items arrive in order in its mailbox, and the adder takes one item per source per round by disabling a mailbox
 * once it has that source's item:
 * <ul>
 *   <li>any order: the items of a round are taken as they come, and every mailbox is enabled again when the round
 *       is complete;</li>
 *   <li>round robin: only the next source's mailbox is enabled at any time.</li>
 * </ul>
 * Both adders run in one program, each with its own sources; in round {@code r} source {@code s} sends
 * {@code (s + 1) * r}, so every joined sum is {@code 6r} whatever order the items cross the network in.
 */
public final class PlacesJoin {
    record Item(int value) {
    }

    /** Fig. 5, lines 1–22: accepts the items of a round in any order. */
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

    /** Fig. 5, lines 24–47: accepts the items of a round in source order. */
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

    record NewSource(SelectorRef<Item, Numbered> adder, int source, int rounds) implements ActorRecipe<Void> {
        @Override
        public Actor<Void> create() {
            return new Source(adder, source, rounds);
        }
    }

    /** Sends its stream into its own mailbox of the adder, then exits. */
    static final class Source extends Actor<Void> {
        private final SelectorRef<Item, Numbered> adder;
        private final int source;
        private final int rounds;

        Source(SelectorRef<Item, Numbered> adder, int source, int rounds) {
            this.adder = adder;
            this.source = source;
            this.rounds = rounds;
        }

        @Override
        protected void onStart() {
            for (int round = 1; round <= rounds; round++) {
                adder.send(source, new Item((source + 1) * round));
            }
            exit();
        }

        @Override
        protected void process(Void message) {
        }
    }

    /** On place 0: the joined sums, in order; exits after {@code expected} of them. */
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

    /** The sums each adder joined, in order, and the run's report. */
    public record Result(List<Integer> anyOrder, List<Integer> roundRobin, PlacesReport report) {
    }

    /** The place of source {@code s}: any place but 0, where the adders are, unless 0 is the only one. */
    static int placeOfSource(int source, Places places) {
        return places.count() == 1 ? 0 : 1 + source % (places.count() - 1);
    }

    public static Result run(Places.Builder launch, PrintStream out) throws InterruptedException {
        return run(launch, 10, out);
    }

    static Result run(Places.Builder launch, int rounds, PrintStream out) throws InterruptedException {
        int sources = 3;
        Collector anyOrder = new Collector(rounds);
        Collector roundRobin = new Collector(rounds);
        PlacesReport report = launch.messages(Item.class, NewSource.class).run(places -> {
            SelectorRef<Item, Numbered> any = new AdderAnyOrder(sources, rounds, anyOrder.start()).start();
            SelectorRef<Item, Numbered> rr = new AdderRoundRobin(sources, rounds, roundRobin.start()).start();
            for (int s = 0; s < sources; s++) {
                places.start(placeOfSource(s, places), new NewSource(any, s, rounds));
                places.start(placeOfSource(s + 1, places), new NewSource(rr, s, rounds));
            }
        });
        out.println("any order:   " + anyOrder.sums);
        out.println("round robin: " + roundRobin.sums);
        out.println("(round r sums 1r + 2r + 3r = 6r, whatever order the sources' items arrive in)");
        out.println(report);
        return new Result(anyOrder.sums, roundRobin.sums, report);
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), System.out);
    }
}
