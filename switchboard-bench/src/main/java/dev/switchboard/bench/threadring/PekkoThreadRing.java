package dev.switchboard.bench.threadring;

import dev.switchboard.bench.harness.PekkoRun;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoThreadRing {
    record Token(int left, long made) {
    }

    record Next(ActorRef next) {
    }

    record Exit(int left, long checksum) {
    }

    private PekkoThreadRing() {
    }

    static long run(ActorSystem system, int actors, int hops) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef[] ring = new ActorRef[actors];
        for (int i = 0; i < actors; i++) {
            ring[i] = run.spawn(system, Props.create(RingActor.class, () -> new RingActor(run, actors)));
        }
        for (int i = 0; i < actors; i++) {
            ring[i].tell(new Next(ring[(i + 1) % actors]), ActorRef.noSender());
        }
        ring[0].tell(new Token(hops, 0), ActorRef.noSender());
        return run.await();
    }

    static final class RingActor extends PekkoRun.Counted {
        private final int actors;
        private ActorRef next;

        RingActor(PekkoRun run, int actors) {
            super(run);
            this.actors = actors;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Token.class, t -> {
                        if (t.left() > 0) {
                            next.tell(new Token(t.left() - 1, t.made() + 1), getSelf());
                        } else {
                            next.tell(new Exit(actors - 1, t.made() + 1), getSelf());
                        }
                    })
                    .match(Next.class, n -> next = n.next())
                    .match(Exit.class, e -> {
                        if (e.left() > 0) {
                            next.tell(new Exit(e.left() - 1, e.checksum() + 1), getSelf());
                        }
                        getContext().stop(getSelf());
                        if (e.left() == 0) {
                            run.complete(e.checksum() + 1);
                        }
                    })
                    .build();
        }
    }
}
