package dev.switchboard.bench.logisticmap;

import dev.switchboard.bench.harness.PekkoRun;
import org.apache.pekko.actor.AbstractActorWithStash;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * LogisticMap on Pekko classic actors: a term actor waiting for its rate actor's answer stashes every other
 * message, and unstashes them all once the answer is in (the idiomatic non-blocking synchronous reply).
 */
final class PekkoLogisticMap {
    record Start() {
    }

    record NextTerm() {
    }

    record GetTerm() {
    }

    record Compute(double term) {
    }

    record Result(double term) {
    }

    record Stop() {
    }

    private static final NextTerm NEXT_TERM = new NextTerm();

    private PekkoLogisticMap() {
    }

    static long run(ActorSystem system, int numTerms, int numSeries) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef master = run.spawn(system, Props.create(Master.class, () -> new Master(run, numTerms, numSeries)));
        master.tell(new Start(), ActorRef.noSender());
        return run.await();
    }

    static final class Master extends PekkoRun.Counted {
        private final int numTerms;
        private final ActorRef[] computers;
        private final ActorRef[] workers;
        private int received;
        private long checksum;

        Master(PekkoRun run, int numTerms, int numSeries) {
            super(run);
            this.numTerms = numTerms;
            computers = new ActorRef[numSeries];
            workers = new ActorRef[numSeries];
            for (int i = 0; i < numSeries; i++) {
                double rate = LogisticMap.rate(i);
                double startTerm = LogisticMap.startTerm(i);
                ActorRef computer = run.spawn(getContext(),
                        Props.create(RateComputer.class, () -> new RateComputer(run, rate)));
                computers[i] = computer;
                ActorRef master = getSelf();
                // A child, not a Counted actor of the run: a stash actor cannot extend PekkoRun.Counted, and the
                // master's postStop runs only after every child has stopped, so the run still waits for it.
                workers[i] = getContext().actorOf(
                        Props.create(SeriesWorker.class, () -> new SeriesWorker(master, computer, startTerm)));
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> {
                        for (int n = 0; n < numTerms; n++) {
                            for (ActorRef w : workers) {
                                w.tell(NEXT_TERM, getSelf());
                            }
                        }
                        for (ActorRef w : workers) {
                            w.tell(new GetTerm(), getSelf());
                        }
                    })
                    .match(Result.class, r -> {
                        checksum += LogisticMap.fingerprint(r.term());
                        if (++received == workers.length) {
                            for (ActorRef c : computers) {
                                c.tell(new Stop(), getSelf());
                            }
                            for (ActorRef w : workers) {
                                w.tell(new Stop(), getSelf());
                            }
                            getContext().stop(getSelf());
                            run.complete(checksum);
                        }
                    })
                    .build();
        }
    }

    static final class SeriesWorker extends AbstractActorWithStash {
        private final ActorRef master;
        private final ActorRef computer;
        private double term;
        /** The behaviour while the rate actor's answer is awaited; built once. */
        private final Receive awaitingResult;

        SeriesWorker(ActorRef master, ActorRef computer, double startTerm) {
            this.master = master;
            this.computer = computer;
            this.term = startTerm;
            this.awaitingResult = receiveBuilder()
                    .match(Result.class, r -> {
                        term = r.term();
                        unstashAll();
                        getContext().unbecome();
                    })
                    .matchAny(m -> stash())
                    .build();
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(NextTerm.class, n -> {
                        computer.tell(new Compute(term), getSelf());
                        getContext().become(awaitingResult, false);
                    })
                    .match(GetTerm.class, g -> master.tell(new Result(term), getSelf()))
                    .match(Stop.class, s -> getContext().stop(getSelf()))
                    .build();
        }
    }

    static final class RateComputer extends PekkoRun.Counted {
        private final double rate;

        RateComputer(PekkoRun run, double rate) {
            super(run);
            this.rate = rate;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Compute.class, c ->
                            getSender().tell(new Result(LogisticMap.nextTerm(c.term(), rate)), getSelf()))
                    .match(Stop.class, s -> getContext().stop(getSelf()))
                    .build();
        }
    }
}
