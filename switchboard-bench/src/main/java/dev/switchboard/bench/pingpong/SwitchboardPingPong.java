package dev.switchboard.bench.pingpong;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;

/** PingPong on Switchboard, one pair or several: the finish ends when every actor has exited. */
final class SwitchboardPingPong {
    sealed interface Msg permits Start, Ping, Pong, Stop {
    }

    record Start() implements Msg {
    }

    record Ping(ActorRef<Msg> sender) implements Msg {
    }

    record Pong() implements Msg {
    }

    record Stop(long pongsReceived) implements Msg {
    }

    private SwitchboardPingPong() {
    }

    static long run(TaskRuntime runtime, int n, int pairs) {
        PongActor[] pongs = new PongActor[pairs];
        runtime.finish(() -> {
            for (int i = 0; i < pairs; i++) {
                pongs[i] = new PongActor();
                ActorRef<Msg> ping = new PingActor(n, pongs[i].start()).start();
                ping.send(new Start());
            }
        });
        long checksum = 0;
        for (PongActor pong : pongs) {
            checksum += pong.checksum;
        }
        return checksum;
    }

    static final class PingActor extends Actor<Msg> {
        private final ActorRef<Msg> pong;
        private int pingsLeft;
        private long pongs;

        PingActor(int n, ActorRef<Msg> pong) {
            this.pingsLeft = n;
            this.pong = pong;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Start s -> {
                    pong.send(new Ping(self()));
                    pingsLeft--;
                }
                case Pong p -> {
                    pongs++;
                    if (pingsLeft > 0) {
                        pong.send(new Ping(self()));
                        pingsLeft--;
                    } else {
                        pong.send(new Stop(pongs));
                        exit();
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class PongActor extends Actor<Msg> {
        private long pings;
        long checksum;

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Ping p -> {
                    pings++;
                    p.sender().send(new Pong());
                }
                case Stop s -> {
                    checksum = pings + s.pongsReceived();
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
