package dev.switchboard.bench.fjthroughput;

import dev.switchboard.bench.Computation;
import dev.switchboard.bench.harness.PekkoRun;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoForkJoinThroughput {
    enum Work { INSTANCE }

    private PekkoForkJoinThroughput() {
    }

    static long run(ActorSystem system, int actors, int messages) throws Exception {
        PekkoRun run = new PekkoRun();
        LongAdder processed = new LongAdder();
        ActorRef[] all = new ActorRef[actors];
        for (int i = 0; i < actors; i++) {
            all[i] = run.spawn(system, Props.create(ThroughputActor.class,
                    () -> new ThroughputActor(run, messages, processed)));
        }
        for (int m = 0; m < messages; m++) {
            for (ActorRef a : all) {
                a.tell(Work.INSTANCE, ActorRef.noSender());
            }
        }
        run.complete(0);                          // the result is the sum, read once every actor has stopped
        run.await();
        return processed.sum();
    }

    static final class ThroughputActor extends PekkoRun.Counted {
        private final int messages;
        private final LongAdder processed;
        private int count;

        ThroughputActor(PekkoRun run, int messages, LongAdder processed) {
            super(run);
            this.messages = messages;
            this.processed = processed;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        Computation.perform(ForkJoinThroughput.THETA);
                        if (++count == messages) {
                            processed.add(count);
                            getContext().stop(getSelf());
                        }
                    })
                    .build();
        }
    }
}
