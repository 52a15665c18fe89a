package app;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import java.util.concurrent.atomic.AtomicInteger;

/** A new user's first program: ping-pong between two actors, a transaction, and the same ping-pong on two places. */
public class Main {
    public record Ping(ActorRef<Pong> from, int left) {}
    public record Pong(int left) {}
    public record NewPonger() implements ActorRecipe<Ping> {
        public Actor<Ping> create() { return new Ponger(); }
    }

    static final class Ponger extends Actor<Ping> {
        protected void process(Ping p) {
            p.from().send(new Pong(p.left()));
            if (p.left() == 0) exit();
        }
    }

    static final class Pinger extends Actor<Pong> {
        private final ActorRef<Ping> ponger;
        private final AtomicInteger rounds;
        Pinger(ActorRef<Ping> ponger, AtomicInteger rounds) { this.ponger = ponger; this.rounds = rounds; }
        protected void onStart() { ponger.send(new Ping(self(), 100)); }
        protected void process(Pong p) {
            rounds.incrementAndGet();
            if (p.left() == 0) exit(); else ponger.send(new Ping(self(), p.left() - 1));
        }
    }

    public static void main(String[] args) throws InterruptedException {
        AtomicInteger rounds = new AtomicInteger();
        finish(() -> new Pinger(new Ponger().start(), rounds).start());

        TRef<Long> alice = TRef.of(100L), bob = TRef.of(0L);
        Stm.atomic(() -> { alice.set(alice.get() - 30); bob.set(bob.get() + 30); });
        long audit = Stm.atomic(() -> alice.get() + bob.get());

        PlacesReport report = Places.builder().messages(Ping.class, Pong.class, NewPonger.class).places(2)
                .run(places -> new Pinger(places.start(1, new NewPonger()), new AtomicInteger()).start());
        System.out.println("rounds " + rounds.get() + ", audit " + audit + ", places " + report.places().size());
    }
}
