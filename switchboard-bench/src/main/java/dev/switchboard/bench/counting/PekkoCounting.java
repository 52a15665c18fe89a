package dev.switchboard.bench.counting;

import dev.switchboard.bench.harness.PekkoRun;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoCounting {
    enum Increment { INSTANCE }

    record Retrieve() {
    }

    record Result(long count) {
    }

    record Go() {
    }

    private PekkoCounting() {
    }

    static long run(ActorSystem system, int n) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef producer = run.spawn(system, Props.create(Producer.class, () -> new Producer(run, n)));
        producer.tell(new Go(), ActorRef.noSender());
        return run.await();
    }

    static final class Producer extends PekkoRun.Counted {
        private final int n;

        Producer(PekkoRun run, int n) {
            super(run);
            this.n = n;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, g -> {
                        ActorRef counter = run.spawn(getContext(), Props.create(Counter.class, () -> new Counter(run)));
                        for (int i = 0; i < n; i++) {
                            counter.tell(Increment.INSTANCE, getSelf());
                        }
                        counter.tell(new Retrieve(), getSelf());
                    })
                    .match(Result.class, r -> {
                        getContext().stop(getSelf());
                        run.complete(r.count());
                    })
                    .build();
        }
    }

    static final class Counter extends PekkoRun.Counted {
        private long count;

        Counter(PekkoRun run) {
            super(run);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Increment.class, i -> count++)
                    .match(Retrieve.class, r -> {
                        getSender().tell(new Result(count), getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
