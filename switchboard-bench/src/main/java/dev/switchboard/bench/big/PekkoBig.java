package dev.switchboard.bench.big;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
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
        CompletableFuture<Long> done = new CompletableFuture<>();
        ActorRef sink = system.actorOf(Props.create(Sink.class, () -> new Sink(actors, done)));
        ActorRef[] all = new ActorRef[actors];
        for (int i = 0; i < actors; i++) {
            int id = i;
            all[i] = system.actorOf(Props.create(BigActor.class, () -> new BigActor(id, pings, sink)));
        }
        sink.tell(new Neighbors(all), ActorRef.noSender());
        for (ActorRef a : all) {
            a.tell(new Neighbors(all), ActorRef.noSender());
        }
        for (ActorRef a : all) {
            a.tell(new Pong(-1), ActorRef.noSender());
        }
        return done.get(5, TimeUnit.MINUTES);
    }

    static final class BigActor extends AbstractActor {
        private final int id;
        private final int pings;
        private final ActorRef sink;
        private final Random random;
        private ActorRef[] neighbors;
        private int sent;
        private int expectedPinger = -1;
        private long pongs;

        BigActor(int id, int pings, ActorRef sink) {
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

    static final class Sink extends AbstractActor {
        private final int actors;
        private final CompletableFuture<Long> done;
        private ActorRef[] all;
        private int finished;
        private long pongs;

        Sink(int actors, CompletableFuture<Long> done) {
            this.actors = actors;
            this.done = done;
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
                            done.complete(pongs);
                        }
                    })
                    .build();
        }
    }
}
