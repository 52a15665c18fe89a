package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.io.PrintStream;

/**
 * [Unified], Fig. 7b: ping-pong whose termination is detected by {@code finish}, with no latch passed around.
 * The finish ends when both actors have called {@code exit()}.
 */
public final class PingPongFinish implements Example {
    sealed interface Msg permits Start, Ping, Pong, Stop {
    }

    record Start() implements Msg {
    }

    record Ping(ActorRef<Msg> sender) implements Msg {
    }

    record Pong() implements Msg {
    }

    record Stop() implements Msg {
    }

    static final class PingActor extends Actor<Msg> {
        private final ActorRef<Msg> pong;
        private int pingsLeft;

        PingActor(int pings, ActorRef<Msg> pong) {
            this.pingsLeft = pings;
            this.pong = pong;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Start s -> ping();
                case Pong p when pingsLeft > 0 -> ping();
                case Pong p -> {
                    pong.send(new Stop());
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }

        private void ping() {
            pingsLeft--;
            pong.send(new Ping(self()));             // a reference, never the actor itself
        }
    }

    static final class PongActor extends Actor<Msg> {
        int pongCount;

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Ping p -> {
                    p.sender().send(new Pong());
                    pongCount++;
                }
                case Stop s -> exit();
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    private final int pings;

    public PingPongFinish(int pings) {
        this.pings = pings;
    }

    public PingPongFinish() {
        this(10_000);
    }

    @Override
    public void run(PrintStream out) {
        PongActor pongActor = new PongActor();            // kept to read its count afterwards
        long t0 = System.nanoTime();
        finish(() -> {
            ActorRef<Msg> pong = pongActor.start("pong");
            ActorRef<Msg> ping = new PingActor(pings, pong).start("ping");
            ping.send(new Start());
        });
        long micros = (System.nanoTime() - t0) / 1000;
        out.println("Both actors terminated");
        out.printf("%d pings answered by %d pongs in %d us%n", pings, pongActor.pongCount, micros);
    }

    public static void main(String[] args) {
        new PingPongFinish().run(System.out);
    }
}
