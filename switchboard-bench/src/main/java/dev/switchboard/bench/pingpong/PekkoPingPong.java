package dev.switchboard.bench.pingpong;

import dev.switchboard.bench.harness.PekkoRun;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** PingPong on Pekko classic actors, one pair or several; the pongs add up the checksum as they stop. */
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

    static long run(ActorSystem system, int n, int pairs) throws Exception {
        PekkoRun run = new PekkoRun();
        Tally tally = new Tally(run, pairs);
        for (int i = 0; i < pairs; i++) {
            ActorRef pong = run.spawn(system, Props.create(PongActor.class, () -> new PongActor(run, tally)));
            ActorRef ping = run.spawn(system, Props.create(PingActor.class, () -> new PingActor(run, n, pong)));
            ping.tell(new Start(), ActorRef.noSender());
        }
        return run.await();
    }

    /** The pongs' checksums, added up; the last pong to stop completes the run with the sum. */
    static final class Tally {
        private final PekkoRun run;
        private final AtomicLong sum = new AtomicLong();
        private final AtomicInteger left;

        Tally(PekkoRun run, int pairs) {
            this.run = run;
            this.left = new AtomicInteger(pairs);
        }

        void add(long checksum) {
            sum.addAndGet(checksum);
            if (left.decrementAndGet() == 0) {    // every pong added before it counted down: the sum is whole
                run.complete(sum.get());
            }
        }
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
        private final Tally tally;
        private long pings;

        PongActor(PekkoRun run, Tally tally) {
            super(run);
            this.tally = tally;
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
                        tally.add(pings + s.pongsReceived());
                    })
                    .build();
        }
    }
}
