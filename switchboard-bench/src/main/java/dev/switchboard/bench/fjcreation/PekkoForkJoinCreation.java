package dev.switchboard.bench.fjcreation;

import dev.switchboard.bench.Computation;
import dev.switchboard.bench.harness.PekkoRun;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoForkJoinCreation {
    enum Work { INSTANCE }

    private PekkoForkJoinCreation() {
    }

    static long run(ActorSystem system, int actors) throws Exception {
        PekkoRun run = new PekkoRun();
        AtomicInteger processed = new AtomicInteger();
        for (int i = 0; i < actors; i++) {
            ActorRef a = run.spawn(system, Props.create(CreatedActor.class, () -> new CreatedActor(run, processed)));
            a.tell(Work.INSTANCE, ActorRef.noSender());
        }
        run.complete(0);                          // the result is the count, read once every actor has stopped
        run.await();
        return processed.get();
    }

    static final class CreatedActor extends PekkoRun.Counted {
        private final AtomicInteger processed;

        CreatedActor(PekkoRun run, AtomicInteger processed) {
            super(run);
            this.processed = processed;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        Computation.perform(ForkJoinCreation.THETA);
                        processed.incrementAndGet();
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
