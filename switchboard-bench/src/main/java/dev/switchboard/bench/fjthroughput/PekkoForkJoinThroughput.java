package dev.switchboard.bench.fjthroughput;

import dev.switchboard.bench.Computation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoForkJoinThroughput {
    enum Work { INSTANCE }

    private PekkoForkJoinThroughput() {
    }

    static long run(ActorSystem system, int actors, int messages) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        LongAdder processed = new LongAdder();
        AtomicInteger finished = new AtomicInteger();
        ActorRef[] all = new ActorRef[actors];
        for (int i = 0; i < actors; i++) {
            all[i] = system.actorOf(Props.create(ThroughputActor.class,
                    () -> new ThroughputActor(messages, actors, processed, finished, done)));
        }
        for (int m = 0; m < messages; m++) {
            for (ActorRef a : all) {
                a.tell(Work.INSTANCE, ActorRef.noSender());
            }
        }
        return done.get(5, TimeUnit.MINUTES);
    }

    static final class ThroughputActor extends AbstractActor {
        private final int messages;
        private final int actors;
        private final LongAdder processed;
        private final AtomicInteger finished;
        private final CompletableFuture<Long> done;
        private int count;

        ThroughputActor(int messages, int actors, LongAdder processed, AtomicInteger finished,
                        CompletableFuture<Long> done) {
            this.messages = messages;
            this.actors = actors;
            this.processed = processed;
            this.finished = finished;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        Computation.perform(ForkJoinThroughput.THETA);
                        if (++count == messages) {
                            processed.add(count);
                            getContext().stop(getSelf());
                            if (finished.incrementAndGet() == actors) {
                                done.complete(processed.sum());
                            }
                        }
                    })
                    .build();
        }
    }
}
