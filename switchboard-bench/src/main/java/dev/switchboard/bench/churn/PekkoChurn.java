package dev.switchboard.bench.churn;

import dev.switchboard.bench.churn.Churn.Params;
import dev.switchboard.bench.harness.PekkoRun;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** Churn on Pekko classic actors: spawner actors create worker actors, tell them their numbers, and stop. */
final class PekkoChurn {
    enum Start { INSTANCE }

    private PekkoChurn() {
    }

    static long run(ActorSystem system, Params p) throws Exception {
        PekkoRun run = new PekkoRun();
        LongAdder total = new LongAdder();
        AtomicInteger workersLeft = new AtomicInteger(p.spawners() * p.perSpawner());
        for (int s = 0; s < p.spawners(); s++) {
            int index = s;
            ActorRef spawner = run.spawn(system,
                    Props.create(Spawner.class, () -> new Spawner(run, index, p, total, workersLeft)));
            spawner.tell(Start.INSTANCE, ActorRef.noSender());
        }
        return run.await();
    }

    static final class Spawner extends PekkoRun.Counted {
        private final int index;
        private final Params p;
        private final LongAdder total;
        private final AtomicInteger workersLeft;

        Spawner(PekkoRun run, int index, Params p, LongAdder total, AtomicInteger workersLeft) {
            super(run);
            this.index = index;
            this.p = p;
            this.total = total;
            this.workersLeft = workersLeft;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> {
                        PekkoRun r = run;
                        int messages = p.messages();
                        LongAdder sums = total;
                        AtomicInteger left = workersLeft;
                        Props props = Props.create(Worker.class, () -> new Worker(r, messages, sums, left));
                        for (int w = 0; w < p.perSpawner(); w++) {
                            ActorRef worker = run.spawn(getContext(), props);
                            for (int k = 0; k < p.messages(); k++) {
                                worker.tell(p.value(index, w, k), getSelf());
                            }
                        }
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    static final class Worker extends PekkoRun.Counted {
        private final LongAdder total;
        private final AtomicInteger workersLeft;
        private int left;
        private long sum;

        Worker(PekkoRun run, int messages, LongAdder total, AtomicInteger workersLeft) {
            super(run);
            this.left = messages;
            this.total = total;
            this.workersLeft = workersLeft;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Long.class, value -> {
                        sum += value;
                        if (--left == 0) {
                            total.add(sum);
                            if (workersLeft.decrementAndGet() == 0) {     // every other worker has added its sum
                                run.complete(total.sum());
                            }
                            getContext().stop(getSelf());
                        }
                    })
                    .build();
        }
    }
}
