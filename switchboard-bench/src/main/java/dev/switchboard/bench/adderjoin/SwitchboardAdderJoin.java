package dev.switchboard.bench.adderjoin;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.TaskRuntime;

/** Adder-Join on Switchboard: the adder is a selector with one mailbox per source ([Selectors], Fig. 11). */
final class SwitchboardAdderJoin {
    /** A number; the mailbox it is sent to names its source, so it carries neither source nor round. */
    record Item(int value) {
    }

    sealed interface SinkMsg permits Sum, Done {
    }

    record Sum(long value) implements SinkMsg {
    }

    record Done() implements SinkMsg {
    }

    record Go() {
    }

    private SwitchboardAdderJoin() {
    }

    static long run(TaskRuntime runtime, int sources, int rounds, boolean roundRobin) {
        SinkActor sink = new SinkActor();
        runtime.finish(() -> {
            ActorRef<SinkMsg> sinkRef = sink.start();
            SelectorRef<Item, Numbered> adder = roundRobin ? new RoundRobinAdder(sources, rounds, sinkRef).start()
                    : new AnyOrderAdder(sources, rounds, sinkRef).start();
            new Driver(sources, rounds, adder).start().send(new Go());
        });
        return sink.total;
    }

    static final class Driver extends Actor<Go> {
        private final int sources;
        private final int rounds;
        private final SelectorRef<Item, Numbered> adder;

        Driver(int sources, int rounds, SelectorRef<Item, Numbered> adder) {
            this.sources = sources;
            this.rounds = rounds;
            this.adder = adder;
        }

        @Override
        protected void process(Go go) {
            AdderJoin.generate(sources, rounds, (source, round, value) -> adder.send(source, new Item(value)));
            exit();
        }
    }

    /** What both adders share: the running sum of the round and its forwarding. */
    abstract static class Adder extends Selector<Item, Numbered> {
        protected final int sources;
        private final ActorRef<SinkMsg> sink;
        private int roundsLeft;
        private long sum;
        protected int matched;
        /** Set with exit() after the last round, so no mailbox is enabled afterwards. */
        protected boolean finished;

        Adder(int sources, int rounds, ActorRef<SinkMsg> sink) {
            super(sources);
            this.sources = sources;
            this.roundsLeft = rounds;
            this.sink = sink;
        }

        /** Adds the number; returns whether it completed the round (and then forwards the sum). */
        protected final boolean add(int value) {
            sum += value;
            if (++matched < sources) {
                return false;
            }
            sink.send(new Sum(sum));
            sum = 0;
            matched = 0;
            if (--roundsLeft == 0) {
                sink.send(new Done());
                finished = true;
                exit();
            }
            return true;
        }
    }

    /** Fig. 11 top: takes the round's numbers in whatever order they are ready. */
    static final class AnyOrderAdder extends Adder {
        AnyOrderAdder(int sources, int rounds, ActorRef<SinkMsg> sink) {
            super(sources, rounds, sink);
        }

        @Override
        protected void process(Item item) {
            disable(currentMailbox());                // one number per source per round
            if (add(item.value()) && !finished) {
                enableAll();                          // the next round
            }
        }
    }

    /** Fig. 11 bottom: takes source 0, then 1, ..., then 0 again. */
    static final class RoundRobinAdder extends Adder {
        RoundRobinAdder(int sources, int rounds, ActorRef<SinkMsg> sink) {
            super(sources, rounds, sink);
            disableAllExcept(0);                      // expect source 0 first
        }

        @Override
        protected void process(Item item) {
            disable(currentMailbox());
            add(item.value());
            if (!finished) {
                enable(matched);                      // the next source, or source 0 after a complete round
            }
        }
    }

    static final class SinkActor extends Actor<SinkMsg> {
        long total;

        @Override
        protected void process(SinkMsg msg) {
            switch (msg) {
                case Sum s -> total += s.value();
                case Done d -> exit();
            }
        }
    }
}
