package dev.switchboard.docs.quickstart;

// The README's quick start, a whole program (QuickStartTest runs it).
// tag::program[]
import static dev.switchboard.Switchboard.*;
import dev.switchboard.actor.*;

sealed interface Msg permits Ping, Pong, Stop {}
record Ping(ActorRef<Msg> from) implements Msg {}
record Pong() implements Msg {}
record Stop() implements Msg {}

final class PongActor extends Actor<Msg> {
    protected void process(Msg msg) {
        switch (msg) {
            case Ping p -> p.from().send(new Pong());
            case Stop s -> exit();
            case Pong p -> throw new IllegalStateException("unexpected " + p);
        }
    }
}

final class PingActor extends Actor<Msg> {
    private final ActorRef<Msg> pong;
    PingActor(ActorRef<Msg> pong) { this.pong = pong; }
    protected void onStart() { pong.send(new Ping(self())); }    // before the first message; self(), never this
    protected void process(Msg msg) {
        switch (msg) {
            case Pong p -> exit();
            default -> throw new IllegalStateException("unexpected " + msg);
        }
    }
    protected void onExit() { pong.send(new Stop()); }           // its last word, however it ended
}

public class PingPong {
    public static void main(String[] args) {
        finish(() -> {                                  // waits for every task and actor started inside
            ActorRef<Msg> pong = new PongActor().start("pong");   // start() returns the reference senders hold
            new PingActor(pong).start("ping");
            async(() -> System.out.println(pong));      // a task in the same finish; prints e.g. pong@1
        });                                             // returns once both actors have exited
    }
}
// end::program[]
