package dev.switchboard.bench.flock;

import dev.switchboard.bench.harness.PekkoRun;
import dev.switchboard.examples.monitors.FlockCouples;
import java.util.BitSet;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** The couples flock on Pekko: the same profiles and matching, in a serial flock actor. */
final class PekkoFlock {
    record Arrive(int person) {
    }

    record IsCoupled(int person) {
    }

    private PekkoFlock() {
    }

    static long run(ActorSystem system, FlockCouples.Person[] friends, int arriving) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef derivation = run.spawn(system, Props.create(Derivation.class, () -> new Derivation(run, arriving)));
        ActorRef flock = run.spawn(system, Props.create(FlockActor.class,
                () -> new FlockActor(run, friends, arriving)));
        for (int i = 0; i < arriving; i++) {
            flock.tell(new Arrive(i), ActorRef.noSender());
        }
        for (int i = 0; i < arriving; i++) {
            flock.tell(new IsCoupled(i), derivation);
        }
        return run.await();
    }

    static final class FlockActor extends PekkoRun.Counted {
        private final FlockCouples.Person[] friends;
        private final BitSet nearby = new BitSet();
        private int readsLeft;

        FlockActor(PekkoRun run, FlockCouples.Person[] friends, int reads) {
            super(run);
            this.friends = friends;
            this.readsLeft = reads;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Arrive.class, a -> nearby.set(a.person()))
                    .match(IsCoupled.class, q -> {
                        FlockCouples.Person p = friends[q.person()];
                        boolean coupled = p.partner() >= 0 && nearby.get(p.partner())
                                && FlockCouples.matches(p, friends[p.partner()]);
                        getSender().tell(coupled ? 1 : 0, getSelf());
                        if (--readsLeft == 0) {
                            getContext().stop(getSelf());
                        }
                    })
                    .build();
        }
    }

    static final class Derivation extends PekkoRun.Counted {
        private int answersLeft;
        private long coupled;

        Derivation(PekkoRun run, int answers) {
            super(run);
            this.answersLeft = answers;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Integer.class, a -> {
                        coupled += a;
                        if (--answersLeft == 0) {
                            getContext().stop(getSelf());
                            run.complete(coupled);
                        }
                    })
                    .build();
        }
    }
}
