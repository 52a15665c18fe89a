package dev.switchboard.bench.chameneos;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;

final class SwitchboardChameneos {
    sealed interface Msg permits Meet, Change, MeetingCount, Exit, Go {
    }

    record Meet(int color, ActorRef<Msg> sender) implements Msg {
    }

    record Change(int color) implements Msg {
    }

    record MeetingCount(long count) implements Msg {
    }

    record Exit() implements Msg {
    }

    record Go() implements Msg {
    }

    private SwitchboardChameneos() {
    }

    static long run(TaskRuntime runtime, int chameneos, int meetings) {
        Mall mall = new Mall(chameneos, meetings);
        runtime.finish(() -> {
            mall.start();
            for (int i = 0; i < chameneos; i++) {
                Creature c = new Creature(mall, i % 3);
                c.start();
                c.send(new Go());
            }
        });
        return mall.sumMeetings;
    }

    static final class Mall extends Actor<Msg> {
        private final int chameneos;
        private int meetingsLeft;
        private Meet waiting;
        private int faded;
        long sumMeetings;

        Mall(int chameneos, int meetings) {
            this.chameneos = chameneos;
            this.meetingsLeft = meetings;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Meet m -> {
                    if (meetingsLeft > 0) {
                        if (waiting == null) {
                            waiting = m;
                        } else {
                            meetingsLeft--;
                            waiting.sender().send(m);
                            waiting = null;
                        }
                    } else {
                        m.sender().send(new Exit());
                    }
                }
                case MeetingCount c -> {
                    sumMeetings += c.count();
                    if (++faded == chameneos) {
                        exit();
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Creature extends Actor<Msg> {
        private final ActorRef<Msg> mall;
        private int color;
        private long meetings;

        Creature(ActorRef<Msg> mall, int color) {
            this.mall = mall;
            this.color = color;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Go g -> mall.send(new Meet(color, this));
                case Meet m -> {
                    color = Chameneos.complement(color, m.color());
                    meetings++;
                    m.sender().send(new Change(color));
                    mall.send(new Meet(color, this));
                }
                case Change c -> {
                    color = c.color();
                    meetings++;
                    mall.send(new Meet(color, this));
                }
                case Exit e -> {
                    mall.send(new MeetingCount(meetings));
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
