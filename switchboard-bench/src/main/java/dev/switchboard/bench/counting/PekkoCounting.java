package dev.switchboard.bench.counting;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
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
        CompletableFuture<Long> done = new CompletableFuture<>();
        ActorRef producer = system.actorOf(Props.create(Producer.class, () -> new Producer(n, done)));
        producer.tell(new Go(), ActorRef.noSender());
        return done.get(5, TimeUnit.MINUTES);
    }

    static final class Producer extends AbstractActor {
        private final int n;
        private final CompletableFuture<Long> done;

        Producer(int n, CompletableFuture<Long> done) {
            this.n = n;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, g -> {
                        ActorRef counter = getContext().getSystem().actorOf(Props.create(Counter.class, Counter::new));
                        for (int i = 0; i < n; i++) {
                            counter.tell(Increment.INSTANCE, getSelf());
                        }
                        counter.tell(new Retrieve(), getSelf());
                    })
                    .match(Result.class, r -> {
                        getContext().stop(getSelf());
                        done.complete(r.count());
                    })
                    .build();
        }
    }

    static final class Counter extends AbstractActor {
        private long count;

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
