package dev.switchboard.bench.filterbank;

import dev.switchboard.bench.harness.PekkoRun;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * FilterBank on Pekko classic actors. An actor has one mailbox, so the end of each branch tags its items with the
 * branch and a sequence number, and the join keeps a dictionary from sequence number to the partial sum and count
 * of that round, forwarding a round's sum once every branch has contributed ([Selectors] §4).
 */
final class PekkoFilterBank {
    record Next() {
    }

    record Boot() {
    }

    record Value(double value) {
    }

    record Tagged(int branch, int seq, double value) {
    }

    record Exit() {
    }

    static final Next NEXT = new Next();
    static final Boot BOOT = new Boot();
    static final Exit EXIT = new Exit();
    static final Value ZERO = new Value(0.0);

    private PekkoFilterBank() {
    }

    static long run(ActorSystem system, int simulations, int channels, int columns) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef sink = run.spawn(system, Props.create(SinkActor.class, () -> new SinkActor(run)));
        ActorRef join = run.spawn(system, Props.create(JoinActor.class, () -> new JoinActor(run, channels, sink)));
        ActorRef[] banks = new ActorRef[channels];
        for (int b = 0; b < channels; b++) {
            int branch = b;
            ActorRef tagger = run.spawn(system, Props.create(TaggerActor.class,
                    () -> new TaggerActor(run, branch, join)));
            ActorRef fir2 = run.spawn(system, Props.create(FirFilterActor.class,
                    () -> new FirFilterActor(run, Stages.f(branch, columns), tagger)));
            ActorRef delay2 = run.spawn(system, Props.create(DelayActor.class,
                    () -> new DelayActor(run, columns - 1, fir2)));
            ActorRef sampler = run.spawn(system, Props.create(SampleFilterActor.class,
                    () -> new SampleFilterActor(run, columns, delay2)));
            ActorRef fir1 = run.spawn(system, Props.create(FirFilterActor.class,
                    () -> new FirFilterActor(run, Stages.h(branch, channels, columns), sampler)));
            banks[b] = run.spawn(system, Props.create(DelayActor.class,
                    () -> new DelayActor(run, columns - 1, fir1)));
        }
        ActorRef branches = run.spawn(system, Props.create(BranchesActor.class, () -> new BranchesActor(run, banks)));
        ActorRef producer = run.spawn(system, Props.create(ProducerActor.class,
                () -> new ProducerActor(run, simulations)));
        ActorRef source = run.spawn(system, Props.create(SourceActor.class,
                () -> new SourceActor(run, producer, branches)));
        producer.tell(NEXT, source);
        return run.await();
    }

    static final class ProducerActor extends PekkoRun.Counted {
        private final int simulations;
        private int sent;

        ProducerActor(PekkoRun run, int simulations) {
            super(run);
            this.simulations = simulations;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Next.class, n -> {
                        if (sent == simulations) {
                            getSender().tell(EXIT, getSelf());
                            getContext().stop(getSelf());
                        } else {
                            getSender().tell(BOOT, getSelf());
                            sent++;
                        }
                    })
                    .build();
        }
    }

    static final class SourceActor extends PekkoRun.Counted {
        private final ActorRef producer;
        private final ActorRef next;
        private int current;

        SourceActor(PekkoRun run, ActorRef producer, ActorRef next) {
            super(run);
            this.producer = producer;
            this.next = next;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Boot.class, b -> {
                        next.tell(new Value(current), getSelf());
                        current = (current + 1) % Stages.SOURCE_MODULUS;
                        producer.tell(NEXT, getSelf());
                    })
                    .match(Exit.class, e -> {
                        next.tell(EXIT, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    static final class BranchesActor extends PekkoRun.Counted {
        private final ActorRef[] banks;

        BranchesActor(PekkoRun run, ActorRef[] banks) {
            super(run);
            this.banks = banks;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Value.class, v -> {
                        for (ActorRef bank : banks) {
                            bank.tell(v, getSelf());
                        }
                    })
                    .match(Exit.class, e -> {
                        for (ActorRef bank : banks) {
                            bank.tell(EXIT, getSelf());
                        }
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    static final class DelayActor extends PekkoRun.Counted {
        private final Stages.Delay delay;
        private final ActorRef next;

        DelayActor(PekkoRun run, int length, ActorRef next) {
            super(run);
            this.delay = new Stages.Delay(length);
            this.next = next;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Value.class, v -> next.tell(new Value(delay.next(v.value())), getSelf()))
                    .match(Exit.class, e -> {
                        next.tell(EXIT, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    static final class FirFilterActor extends PekkoRun.Counted {
        private final Stages.Fir fir;
        private final ActorRef next;

        FirFilterActor(PekkoRun run, double[] coefficients, ActorRef next) {
            super(run);
            this.fir = new Stages.Fir(coefficients);
            this.next = next;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Value.class, v -> {
                        if (fir.push(v.value())) {
                            next.tell(new Value(fir.output()), getSelf());
                        }
                    })
                    .match(Exit.class, e -> {
                        next.tell(EXIT, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    static final class SampleFilterActor extends PekkoRun.Counted {
        private final Stages.Sampler sampler;
        private final ActorRef next;

        SampleFilterActor(PekkoRun run, int rate, ActorRef next) {
            super(run);
            this.sampler = new Stages.Sampler(rate);
            this.next = next;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Value.class, v -> next.tell(sampler.keep() ? v : ZERO, getSelf()))
                    .match(Exit.class, e -> {
                        next.tell(EXIT, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    /** The end of a branch: tags each value with the branch and its sequence number. */
    static final class TaggerActor extends PekkoRun.Counted {
        private final int branch;
        private final ActorRef join;
        private int seq;

        TaggerActor(PekkoRun run, int branch, ActorRef join) {
            super(run);
            this.branch = branch;
            this.join = join;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Value.class, v -> join.tell(new Tagged(branch, seq++, v.value()), getSelf()))
                    .match(Exit.class, e -> {
                        join.tell(EXIT, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    /**
     * The join: partial sums by sequence number. Messages from one branch arrive in order, so a round completes
     * only after every earlier round has, and the sums go out in sequence order.
     */
    static final class JoinActor extends PekkoRun.Counted {
        /** A round in progress: the sum of its items so far and how many arrived. */
        private static final class Partial {
            double sum;
            int count;
        }

        private final int channels;
        private final ActorRef sink;
        private final Map<Integer, Partial> pending = new HashMap<>();
        private int exits;

        JoinActor(PekkoRun run, int channels, ActorRef sink) {
            super(run);
            this.channels = channels;
            this.sink = sink;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Tagged.class, t -> {
                        Partial p = pending.computeIfAbsent(t.seq(), seq -> new Partial());
                        p.sum += t.value();
                        if (++p.count == channels) {
                            pending.remove(t.seq());
                            sink.tell(new Value(p.sum), getSelf());
                        }
                    })
                    .match(Exit.class, e -> {
                        if (++exits == channels) {
                            sink.tell(EXIT, getSelf());
                            getContext().stop(getSelf());
                        }
                    })
                    .build();
        }
    }

    static final class SinkActor extends PekkoRun.Counted {
        private final Stages.Checksum checksum = new Stages.Checksum();

        SinkActor(PekkoRun run) {
            super(run);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Value.class, v -> checksum.add(v.value()))
                    .match(Exit.class, e -> {
                        run.complete(checksum.value());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
