package dev.switchboard.bench.pingpong;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** PingPong on Pekko classic actors; the pong actor completes a future with the checksum when stopped. */
final class PekkoPingPong {
    record Start() {
    }

    record Ping() {
    }

    record Pong() {
    }

    record Stop(long pongsReceived) {
    }

    private PekkoPingPong() {
    }

    static long run(ActorSystem system, int n) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        ActorRef pong = system.actorOf(Props.create(PongActor.class, () -> new PongActor(done)));
        ActorRef ping = system.actorOf(Props.create(PingActor.class, () -> new PingActor(n, pong)));
        ping.tell(new Start(), ActorRef.noSender());
        return done.get(5, TimeUnit.MINUTES);
    }

    static final class PingActor extends AbstractActor {
        private final ActorRef pong;
        private int pingsLeft;
        private long pongs;

        PingActor(int n, ActorRef pong) {
            this.pingsLeft = n;
            this.pong = pong;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> {
                        pong.tell(new Ping(), getSelf());
                        pingsLeft--;
                    })
                    .match(Pong.class, p -> {
                        pongs++;
                        if (pingsLeft > 0) {
                            pong.tell(new Ping(), getSelf());
                            pingsLeft--;
                        } else {
                            pong.tell(new Stop(pongs), getSelf());
                            getContext().stop(getSelf());
                        }
                    })
                    .build();
        }
    }

    static final class PongActor extends AbstractActor {
        private final CompletableFuture<Long> done;
        private long pings;

        PongActor(CompletableFuture<Long> done) {
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Ping.class, p -> {
                        pings++;
                        getSender().tell(new Pong(), getSelf());
                    })
                    .match(Stop.class, s -> {
                        getContext().stop(getSelf());
                        done.complete(pings + s.pongsReceived());
                    })
                    .build();
        }
    }
}
