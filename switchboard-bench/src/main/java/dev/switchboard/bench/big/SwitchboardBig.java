package dev.switchboard.bench.big;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import java.util.Random;

final class SwitchboardBig {
    sealed interface Msg permits Ping, Pong, Neighbors, Done, Exit {
    }

    record Ping(int sender) implements Msg {
    }

    record Pong(int sender) implements Msg {
    }

    record Neighbors(ActorRef<Msg>[] all) implements Msg {
    }

    record Done(long pongs) implements Msg {
    }

    record Exit() implements Msg {
    }

    private SwitchboardBig() {
    }

    static long run(TaskRuntime runtime, int actors, int pings) {
        Sink sink = new Sink(actors);
        runtime.finish(() -> {
            ActorRef<Msg> sinkRef = sink.start();
            ActorRef<Msg>[] all = ActorRef.newArray(actors);
            for (int i = 0; i < actors; i++) {
                all[i] = new BigActor(i, pings, sinkRef).start();
            }
            sinkRef.send(new Neighbors(all));
            for (ActorRef<Msg> a : all) {
                a.send(new Neighbors(all));
            }
            for (ActorRef<Msg> a : all) {
                a.send(new Pong(-1));
            }
        });
        return sink.pongs;
    }

    static final class BigActor extends Actor<Msg> {
        private final int id;
        private final int pings;
        private final ActorRef<Msg> sink;
        private final Random random;
        private ActorRef<Msg>[] neighbors;
        private int sent;
        private int expectedPinger = -1;
        private long pongs;

        BigActor(int id, int pings, ActorRef<Msg> sink) {
            this.id = id;
            this.pings = pings;
            this.sink = sink;
            this.random = new Random(id);
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Ping p -> neighbors[p.sender()].send(new Pong(id));
                case Pong p -> {
                    if (p.sender() != expectedPinger) {
                        throw new IllegalStateException(this + " expected a pong from " + expectedPinger
                                + " but got one from " + p.sender());
                    }
                    if (p.sender() >= 0) {
                        pongs++;
                    }
                    if (sent == pings) {
                        sink.send(new Done(pongs));
                    } else {
                        int target = random.nextInt(neighbors.length);
                        expectedPinger = target;
                        neighbors[target].send(new Ping(id));
                        sent++;
                    }
                }
                case Neighbors n -> neighbors = n.all();
                case Exit e -> exit();
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Sink extends Actor<Msg> {
        private final int actors;
        private ActorRef<Msg>[] all;
        private int done;
        long pongs;

        Sink(int actors) {
            this.actors = actors;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Neighbors n -> all = n.all();
                case Done d -> {
                    pongs += d.pongs();
                    if (++done == actors) {
                        for (ActorRef<Msg> a : all) {
                            a.send(new Exit());
                        }
                        exit();
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
