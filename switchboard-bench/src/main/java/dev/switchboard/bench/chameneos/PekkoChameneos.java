package dev.switchboard.bench.chameneos;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoChameneos {
    record Meet(int color, ActorRef sender) {
    }

    record Change(int color) {
    }

    record MeetingCount(long count) {
    }

    record Exit() {
    }

    record Go() {
    }

    private PekkoChameneos() {
    }

    static long run(ActorSystem system, int chameneos, int meetings) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        ActorRef mall = system.actorOf(Props.create(Mall.class, () -> new Mall(chameneos, meetings, done)));
        for (int i = 0; i < chameneos; i++) {
            int color = i % 3;
            ActorRef c = system.actorOf(Props.create(Creature.class, () -> new Creature(mall, color)));
            c.tell(new Go(), ActorRef.noSender());
        }
        return done.get(5, TimeUnit.MINUTES);
    }

    static final class Mall extends AbstractActor {
        private final int chameneos;
        private final CompletableFuture<Long> done;
        private int meetingsLeft;
        private Meet waiting;
        private int faded;
        private long sumMeetings;

        Mall(int chameneos, int meetings, CompletableFuture<Long> done) {
            this.chameneos = chameneos;
            this.meetingsLeft = meetings;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Meet.class, m -> {
                        if (meetingsLeft > 0) {
                            if (waiting == null) {
                                waiting = m;
                            } else {
                                meetingsLeft--;
                                waiting.sender().tell(m, getSelf());
                                waiting = null;
                            }
                        } else {
                            m.sender().tell(new Exit(), getSelf());
                        }
                    })
                    .match(MeetingCount.class, c -> {
                        sumMeetings += c.count();
                        if (++faded == chameneos) {
                            getContext().stop(getSelf());
                            done.complete(sumMeetings);
                        }
                    })
                    .build();
        }
    }

    static final class Creature extends AbstractActor {
        private final ActorRef mall;
        private int color;
        private long meetings;

        Creature(ActorRef mall, int color) {
            this.mall = mall;
            this.color = color;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, g -> mall.tell(new Meet(color, getSelf()), getSelf()))
                    .match(Meet.class, m -> {
                        color = Chameneos.complement(color, m.color());
                        meetings++;
                        m.sender().tell(new Change(color), getSelf());
                        mall.tell(new Meet(color, getSelf()), getSelf());
                    })
                    .match(Change.class, c -> {
                        color = c.color();
                        meetings++;
                        mall.tell(new Meet(color, getSelf()), getSelf());
                    })
                    .match(Exit.class, e -> {
                        mall.tell(new MeetingCount(meetings), getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
