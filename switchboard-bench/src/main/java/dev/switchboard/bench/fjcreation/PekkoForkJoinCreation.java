package dev.switchboard.bench.fjcreation;

import dev.switchboard.bench.Computation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoForkJoinCreation {
    enum Work { INSTANCE }

    private PekkoForkJoinCreation() {
    }

    static long run(ActorSystem system, int actors) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger processed = new AtomicInteger();
        for (int i = 0; i < actors; i++) {
            ActorRef a = system.actorOf(Props.create(CreatedActor.class,
                    () -> new CreatedActor(actors, processed, done)));
            a.tell(Work.INSTANCE, ActorRef.noSender());
        }
        return done.get(5, TimeUnit.MINUTES);
    }

    static final class CreatedActor extends AbstractActor {
        private final int actors;
        private final AtomicInteger processed;
        private final CompletableFuture<Long> done;

        CreatedActor(int actors, AtomicInteger processed, CompletableFuture<Long> done) {
            this.actors = actors;
            this.processed = processed;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        Computation.perform(ForkJoinCreation.THETA);
                        getContext().stop(getSelf());
                        if (processed.incrementAndGet() == actors) {
                            done.complete((long) actors);
                        }
                    })
                    .build();
        }
    }
}
