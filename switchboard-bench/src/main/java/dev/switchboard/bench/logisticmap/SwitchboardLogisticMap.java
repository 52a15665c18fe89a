package dev.switchboard.bench.logisticmap;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.TaskRuntime;

/** LogisticMap on Switchboard: term actors are selectors that wait for the rate actor's reply (paper Fig. 7). */
final class SwitchboardLogisticMap {
    sealed interface Msg permits Start, NextTerm, GetTerm, Compute, Result, Stop {
    }

    record Start() implements Msg {
    }

    record NextTerm() implements Msg {
    }

    record GetTerm() implements Msg {
    }

    record Compute(SelectorRef<Msg, Box> sender, double term) implements Msg {
    }

    record Result(double term) implements Msg {
    }

    record Stop() implements Msg {
    }

    enum Box { REGULAR, REPLY }

    private static final NextTerm NEXT_TERM = new NextTerm();

    private SwitchboardLogisticMap() {
    }

    static long run(TaskRuntime runtime, int numTerms, int numSeries) {
        Master master = new Master(numTerms, numSeries);
        runtime.finish(() -> master.start().send(new Start()));
        return master.checksum;
    }

    static final class Master extends Actor<Msg> {
        private final int numTerms;
        private final ActorRef<Msg>[] computers;
        private final SelectorRef<Msg, Box>[] workers;
        private int received;
        long checksum;

        @SuppressWarnings("unchecked")
        Master(int numTerms, int numSeries) {
            this.numTerms = numTerms;
            computers = ActorRef.newArray(numSeries);
            workers = SelectorRef.newArray(numSeries);
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Start s -> {
                    for (int i = 0; i < computers.length; i++) {
                        computers[i] = new RateComputer(LogisticMap.rate(i)).start();
                    }
                    for (int i = 0; i < workers.length; i++) {
                        workers[i] = new SeriesWorker(self(), computers[i], LogisticMap.startTerm(i)).start();
                    }
                    for (int n = 0; n < numTerms; n++) {
                        for (SelectorRef<Msg, Box> w : workers) {
                            w.send(Box.REGULAR, NEXT_TERM);
                        }
                    }
                    for (SelectorRef<Msg, Box> w : workers) {
                        w.send(Box.REGULAR, new GetTerm());
                    }
                }
                case Result r -> {
                    checksum += LogisticMap.fingerprint(r.term());
                    if (++received == workers.length) {
                        for (ActorRef<Msg> c : computers) {
                            c.send(new Stop());
                        }
                        for (SelectorRef<Msg, Box> w : workers) {
                            w.send(Box.REGULAR, new Stop());
                        }
                        exit();
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class SeriesWorker extends Selector<Msg, Box> {
        private final ActorRef<Msg> master;
        private final ActorRef<Msg> computer;
        private double term;

        SeriesWorker(ActorRef<Msg> master, ActorRef<Msg> computer, double startTerm) {
            super(Box.class);
            this.master = master;
            this.computer = computer;
            this.term = startTerm;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case NextTerm n -> {
                    computer.send(new Compute(self(), term));
                    disable(Box.REGULAR);              // reply-blocked: only the REPLY mailbox is served
                }
                case Result r -> {
                    term = r.term();
                    enable(Box.REGULAR);
                }
                case GetTerm g -> master.send(new Result(term));
                case Stop s -> exit();
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class RateComputer extends Actor<Msg> {
        private final double rate;

        RateComputer(double rate) {
            this.rate = rate;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Compute c -> c.sender().send(Box.REPLY, new Result(LogisticMap.nextTerm(c.term(), rate)));
                case Stop s -> exit();
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
