package dev.switchboard.bench.pingpong;

import dev.switchboard.bench.harness.PekkoRun;
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
        PekkoRun run = new PekkoRun();
        ActorRef pong = run.spawn(system, Props.create(PongActor.class, () -> new PongActor(run)));
        ActorRef ping = run.spawn(system, Props.create(PingActor.class, () -> new PingActor(run, n, pong)));
        ping.tell(new Start(), ActorRef.noSender());
        return run.await();
    }

    static final class PingActor extends PekkoRun.Counted {
        private final ActorRef pong;
        private int pingsLeft;
        private long pongs;

        PingActor(PekkoRun run, int n, ActorRef pong) {
            super(run);
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

    static final class PongActor extends PekkoRun.Counted {
        private long pings;

        PongActor(PekkoRun run) {
            super(run);
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
                        run.complete(pings + s.pongsReceived());
                    })
                    .build();
        }
    }
}
