package dev.switchboard.docs;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;

/** The scaffold of the guide's section "Running on several JVMs"; GuidePlacesTest runs it on one and two places. */
final class GuidePlaces {
    private GuidePlaces() {
    }

    static volatile PlacesReport lastReport;

    /** Answers every Ping with a Pong; exits after the last. */
    static final class Ponger extends Actor<Ping> {
        @Override
        protected void process(Ping p) {
            p.from().send(new Pong(p.left()));
            if (p.left() == 0) {
                exit();
            }
        }
    }

    /** Plays {@code rounds} rounds with a ponger, wherever it is. */
    static final class Pinger extends Actor<Pong> {
        private final ActorRef<Ping> ponger;
        private final int rounds;

        Pinger(ActorRef<Ping> ponger, int rounds) {
            this.ponger = ponger;
            this.rounds = rounds;
        }

        @Override
        protected void onStart() {
            ponger.send(new Ping(self(), rounds));
        }

        @Override
        protected void process(Pong p) {
            if (p.left() == 0) {
                exit();
            } else {
                ponger.send(new Ping(self(), p.left() - 1));
            }
        }
    }

    // tag::program[]
    record Ping(ActorRef<Pong> from, int left) {}
    record Pong(int left) {}
    record NewPonger() implements ActorRecipe<Ping> {            // how to make a Ponger at a place
        public Actor<Ping> create() { return new Ponger(); }
    }

    public static void main(String[] args) throws InterruptedException {
        PlacesReport report = Places.builder()
                .messages(Ping.class, Pong.class, NewPonger.class)  // every class a message between places carries
                .args(args)                                        // --places 4, or --config places.conf --place p2
                .run(places -> {                                   // place 0, inside the program's finish
                    ActorRef<Ping> ponger = places.start(places.count() - 1, new NewPonger());
                    new Pinger(ponger, 1_000).start();             // a local actor that plays with the remote one
                });                                                // returns when every place has ended
    // end::program[]
        lastReport = report;
    // tag::program[]
    }
    // end::program[]
}
