package dev.switchboard.bench.filterbank;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.TaskRuntime;

/**
 * FilterBank on Switchboard: plain actors for every stage, and a selector with one mailbox per branch for the
 * join, so items need no tags and the join keeps no dictionary ([Selectors] §4).
 */
final class SwitchboardFilterBank {
    sealed interface Msg permits Next, Boot, Value, Exit {
    }

    /** The source asks the producer for the next simulation. */
    record Next(ActorRef<Msg> source) implements Msg {
    }

    record Boot() implements Msg {
    }

    record Value(double value) implements Msg {
    }

    /** Flows down the pipeline behind the last value; each stage passes it on and exits. */
    record Exit() implements Msg {
    }

    static final Boot BOOT = new Boot();
    static final Exit EXIT = new Exit();
    static final Value ZERO = new Value(0.0);

    private SwitchboardFilterBank() {
    }

    static long run(TaskRuntime runtime, int simulations, int channels, int columns, boolean roundRobin) {
        Sink sink = new Sink();
        runtime.finish(() -> {
            ActorRef<Msg> sinkRef = sink.start();
            SelectorRef<Msg, Numbered> join = roundRobin
                    ? new RoundRobinJoin(channels, sinkRef).start()
                    : new AnyOrderJoin(channels, sinkRef).start();
            ActorRef<Msg>[] banks = ActorRef.newArray(channels);
            for (int b = 0; b < channels; b++) {
                ActorRef<Msg> tagger = new Tagger(b, join).start();
                ActorRef<Msg> fir2 = new FirFilter(Stages.f(b, columns), tagger).start();
                ActorRef<Msg> delay2 = new DelayStage(columns - 1, fir2).start();
                ActorRef<Msg> sampler = new SampleFilter(columns, delay2).start();
                ActorRef<Msg> fir1 = new FirFilter(Stages.h(b, channels, columns), sampler).start();
                banks[b] = new DelayStage(columns - 1, fir1).start();
            }
            ActorRef<Msg> branches = new Branches(banks).start();
            ActorRef<Msg> producer = new Producer(simulations).start();
            ActorRef<Msg> source = new Source(producer, branches).start();
            producer.send(new Next(source));
        });
        return sink.checksum.value();
    }

    static final class Producer extends Actor<Msg> {
        private final int simulations;
        private int sent;

        Producer(int simulations) {
            this.simulations = simulations;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Next next when sent == simulations -> {
                    next.source().send(EXIT);
                    exit();
                }
                case Next next -> {
                    next.source().send(BOOT);
                    sent++;
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Source extends Actor<Msg> {
        private final ActorRef<Msg> producer;
        private final ActorRef<Msg> next;
        private int current;

        Source(ActorRef<Msg> producer, ActorRef<Msg> next) {
            this.producer = producer;
            this.next = next;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Boot b -> {
                    next.send(new Value(current));
                    current = (current + 1) % Stages.SOURCE_MODULUS;
                    producer.send(new Next(self()));
                }
                case Exit e -> {
                    next.send(EXIT);
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    /** The split: every value to every branch. */
    static final class Branches extends Actor<Msg> {
        private final ActorRef<Msg>[] banks;

        Branches(ActorRef<Msg>[] banks) {
            this.banks = banks;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Value v -> {
                    for (ActorRef<Msg> bank : banks) {
                        bank.send(v);
                    }
                }
                case Exit e -> {
                    for (ActorRef<Msg> bank : banks) {
                        bank.send(EXIT);
                    }
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    /** A stage with one successor, which passes Exit on and exits. */
    abstract static class Stage extends Actor<Msg> {
        protected final ActorRef<Msg> next;

        Stage(ActorRef<Msg> next) {
            this.next = next;
        }

        protected abstract void onValue(Value v);

        @Override
        protected final void process(Msg msg) {
            switch (msg) {
                case Value v -> onValue(v);
                case Exit e -> {
                    next.send(EXIT);
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class DelayStage extends Stage {
        private final Stages.Delay delay;

        DelayStage(int length, ActorRef<Msg> next) {
            super(next);
            this.delay = new Stages.Delay(length);
        }

        @Override
        protected void onValue(Value v) {
            next.send(new Value(delay.next(v.value())));
        }
    }

    static final class FirFilter extends Stage {
        private final Stages.Fir fir;

        FirFilter(double[] coefficients, ActorRef<Msg> next) {
            super(next);
            this.fir = new Stages.Fir(coefficients);
        }

        @Override
        protected void onValue(Value v) {
            if (fir.push(v.value())) {
                next.send(new Value(fir.output()));
            }
        }
    }

    static final class SampleFilter extends Stage {
        private final Stages.Sampler sampler;

        SampleFilter(int rate, ActorRef<Msg> next) {
            super(next);
            this.sampler = new Stages.Sampler(rate);
        }

        @Override
        protected void onValue(Value v) {
            next.send(sampler.keep() ? v : ZERO);
        }
    }

    /** The end of a branch: sends its values, and then Exit, into the branch's mailbox of the join. */
    static final class Tagger extends Actor<Msg> {
        private final int branch;
        private final SelectorRef<Msg, Numbered> join;

        Tagger(int branch, SelectorRef<Msg, Numbered> join) {
            this.branch = branch;
            this.join = join;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Value v -> join.send(branch, v);
                case Exit e -> {
                    join.send(branch, EXIT);
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    /**
     * Fig. 11 top: takes the round's items in whatever order they are ready, disabling each branch once it has
     * contributed. A branch's Exit comes after its last value, and all branches send as many values, so an Exit is
     * taken only once every round is complete.
     */
    static final class AnyOrderJoin extends Selector<Msg, Numbered> {
        private final int channels;
        private final ActorRef<Msg> sink;
        private double sum;
        private int matched;
        private int exits;

        AnyOrderJoin(int channels, ActorRef<Msg> sink) {
            super(channels);
            this.channels = channels;
            this.sink = sink;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Value v -> {
                    sum += v.value();
                    disable(currentMailbox());            // one item per branch per round
                    if (++matched == channels) {
                        sink.send(new Value(sum));
                        sum = 0;
                        matched = 0;
                        enableAll();                      // the next round
                    }
                }
                case Exit e -> {
                    if (++exits == channels) {
                        sink.send(EXIT);
                        exit();
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    /** Fig. 11 bottom: takes branch 0, 1, ..., then 0 again; the Exits come in the same order. */
    static final class RoundRobinJoin extends Selector<Msg, Numbered> {
        private final int channels;
        private final ActorRef<Msg> sink;
        private double sum;
        private int matched;
        private int exits;

        RoundRobinJoin(int channels, ActorRef<Msg> sink) {
            super(channels);
            this.channels = channels;
            this.sink = sink;
            disableAllExcept(0);                          // expect branch 0 first
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Value v -> {
                    sum += v.value();
                    disable(currentMailbox());
                    if (++matched == channels) {
                        sink.send(new Value(sum));
                        sum = 0;
                        matched = 0;
                    }
                    enable(matched);                      // the next branch, or branch 0 for the next round
                }
                case Exit e -> {
                    disable(currentMailbox());
                    if (++exits == channels) {
                        sink.send(EXIT);
                        exit();
                    } else {
                        enable(exits);
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Sink extends Actor<Msg> {
        final Stages.Checksum checksum = new Stages.Checksum();

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Value v -> checksum.add(v.value());
                case Exit e -> exit();
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
