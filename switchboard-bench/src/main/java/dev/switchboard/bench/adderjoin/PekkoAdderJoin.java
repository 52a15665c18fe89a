package dev.switchboard.bench.adderjoin;

import dev.switchboard.bench.harness.PekkoRun;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * Adder-Join on Pekko classic actors: an actor has one mailbox, so every number is tagged with its source and
 * round, and the adder collects partial sums in a dictionary keyed by the round ([Selectors] §4).
 */
final class PekkoAdderJoin {
    record Go() {
    }

    record Item(int source, int seq, int value) {
    }

    record Sum(long value) {
    }

    record Done() {
    }

    private PekkoAdderJoin() {
    }

    static long run(ActorSystem system, int sources, int rounds) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef sink = run.spawn(system, Props.create(SinkActor.class, () -> new SinkActor(run)));
        ActorRef adder = run.spawn(system, Props.create(AdderActor.class, () -> new AdderActor(run, sources, rounds,
                sink)));
        ActorRef driver = run.spawn(system, Props.create(DriverActor.class, () -> new DriverActor(run, sources, rounds,
                adder)));
        driver.tell(new Go(), ActorRef.noSender());
        return run.await();
    }

    static final class DriverActor extends PekkoRun.Counted {
        private final int sources;
        private final int rounds;
        private final ActorRef adder;

        DriverActor(PekkoRun run, int sources, int rounds, ActorRef adder) {
            super(run);
            this.sources = sources;
            this.rounds = rounds;
            this.adder = adder;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, go -> {
                        AdderJoin.generate(sources, rounds,
                                (source, round, value) -> adder.tell(new Item(source, round, value), getSelf()));
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    static final class AdderActor extends PekkoRun.Counted {
        /** A round in progress: the sum of its numbers so far and how many arrived. */
        private static final class Partial {
            long sum;
            int count;
        }

        private final int sources;
        private final ActorRef sink;
        private final Map<Integer, Partial> pending = new HashMap<>();
        private int roundsLeft;

        AdderActor(PekkoRun run, int sources, int rounds, ActorRef sink) {
            super(run);
            this.sources = sources;
            this.roundsLeft = rounds;
            this.sink = sink;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Item.class, item -> {
                        Partial p = pending.computeIfAbsent(item.seq(), seq -> new Partial());
                        p.sum += item.value();
                        if (++p.count == sources) {
                            pending.remove(item.seq());
                            sink.tell(new Sum(p.sum), getSelf());
                            if (--roundsLeft == 0) {
                                sink.tell(new Done(), getSelf());
                                getContext().stop(getSelf());
                            }
                        }
                    })
                    .build();
        }
    }

    static final class SinkActor extends PekkoRun.Counted {
        private long total;

        SinkActor(PekkoRun run) {
            super(run);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Sum.class, s -> total += s.value())
                    .match(Done.class, d -> {
                        run.complete(total);
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
