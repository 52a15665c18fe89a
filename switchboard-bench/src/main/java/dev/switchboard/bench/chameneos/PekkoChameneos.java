package dev.switchboard.bench.chameneos;

import dev.switchboard.bench.harness.PekkoRun;
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
        PekkoRun run = new PekkoRun();
        ActorRef mall = run.spawn(system, Props.create(Mall.class, () -> new Mall(run, chameneos, meetings)));
        for (int i = 0; i < chameneos; i++) {
            int color = i % 3;
            ActorRef c = run.spawn(system, Props.create(Creature.class, () -> new Creature(run, mall, color)));
            c.tell(new Go(), ActorRef.noSender());
        }
        return run.await();
    }

    static final class Mall extends PekkoRun.Counted {
        private final int chameneos;
        private int meetingsLeft;
        private Meet waiting;
        private int faded;
        private long sumMeetings;

        Mall(PekkoRun run, int chameneos, int meetings) {
            super(run);
            this.chameneos = chameneos;
            this.meetingsLeft = meetings;
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
                            run.complete(sumMeetings);
                        }
                    })
                    .build();
        }
    }

    static final class Creature extends PekkoRun.Counted {
        private final ActorRef mall;
        private int color;
        private long meetings;

        Creature(PekkoRun run, ActorRef mall, int color) {
            super(run);
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
