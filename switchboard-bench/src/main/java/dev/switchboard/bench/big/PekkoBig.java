package dev.switchboard.bench.big;

import dev.switchboard.bench.harness.PekkoRun;
import java.util.Random;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoBig {
    record Ping(int sender) {
    }

    record Pong(int sender) {
    }

    record Neighbors(ActorRef[] all) {
    }

    record Done(long pongs) {
    }

    record Exit() {
    }

    private PekkoBig() {
    }

    static long run(ActorSystem system, int actors, int pings) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef sink = run.spawn(system, Props.create(Sink.class, () -> new Sink(run, actors)));
        ActorRef[] all = new ActorRef[actors];
        for (int i = 0; i < actors; i++) {
            int id = i;
            all[i] = run.spawn(system, Props.create(BigActor.class, () -> new BigActor(run, id, pings, sink)));
        }
        sink.tell(new Neighbors(all), ActorRef.noSender());
        for (ActorRef a : all) {
            a.tell(new Neighbors(all), ActorRef.noSender());
        }
        for (ActorRef a : all) {
            a.tell(new Pong(-1), ActorRef.noSender());
        }
        return run.await();
    }

    static final class BigActor extends PekkoRun.Counted {
        private final int id;
        private final int pings;
        private final ActorRef sink;
        private final Random random;
        private ActorRef[] neighbors;
        private int sent;
        private int expectedPinger = -1;
        private long pongs;

        BigActor(PekkoRun run, int id, int pings, ActorRef sink) {
            super(run);
            this.id = id;
            this.pings = pings;
            this.sink = sink;
            this.random = new Random(id);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Ping.class, p -> neighbors[p.sender()].tell(new Pong(id), getSelf()))
                    .match(Pong.class, p -> {
                        if (p.sender() != expectedPinger) {
                            throw new IllegalStateException("expected a pong from " + expectedPinger);
                        }
                        if (p.sender() >= 0) {
                            pongs++;
                        }
                        if (sent == pings) {
                            sink.tell(new Done(pongs), getSelf());
                        } else {
                            int target = random.nextInt(neighbors.length);
                            expectedPinger = target;
                            neighbors[target].tell(new Ping(id), getSelf());
                            sent++;
                        }
                    })
                    .match(Neighbors.class, n -> neighbors = n.all())
                    .match(Exit.class, e -> getContext().stop(getSelf()))
                    .build();
        }
    }

    static final class Sink extends PekkoRun.Counted {
        private final int actors;
        private ActorRef[] all;
        private int finished;
        private long pongs;

        Sink(PekkoRun run, int actors) {
            super(run);
            this.actors = actors;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Neighbors.class, n -> all = n.all())
                    .match(Done.class, d -> {
                        pongs += d.pongs();
                        if (++finished == actors) {
                            for (ActorRef a : all) {
                                a.tell(new Exit(), getSelf());
                            }
                            getContext().stop(getSelf());
                            run.complete(pongs);
                        }
                    })
                    .build();
        }
    }
}
