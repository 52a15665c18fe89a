package dev.switchboard.bench.chameneos;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
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

    /** With {@code mailboxes == 0} the mall is an actor, otherwise a selector with that many mailboxes. */
    static long run(TaskRuntime runtime, int chameneos, int meetings, int mailboxes) {
        MallLogic logic = new MallLogic(chameneos, meetings);
        runtime.finish(() -> {
            ActorRef<Msg> mall = mailboxes == 0 ? new Mall(logic).start() : new MallSelector(logic, mailboxes).start();
            for (int i = 0; i < chameneos; i++) {
                ActorRef<Msg> c = new Creature(mall, mailboxes == 0 ? 0 : i % mailboxes, i % 3).start();
                c.send(new Go());
            }
        });
        return logic.sumMeetings;
    }

    /** The mall's state and rules, shared by the actor and the selector mall so both do exactly the same work. */
    static final class MallLogic {
        private final int chameneos;
        private int meetingsLeft;
        private Meet waiting;
        private int faded;
        long sumMeetings;

        MallLogic(int chameneos, int meetings) {
            this.chameneos = chameneos;
            this.meetingsLeft = meetings;
        }

        /** Processes one message; returns true when the mall should exit. */
        boolean process(Msg msg) {
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
                    return false;
                }
                case MeetingCount c -> {
                    sumMeetings += c.count();
                    return ++faded == chameneos;
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Mall extends Actor<Msg> {
        private final MallLogic logic;

        Mall(MallLogic logic) {
            this.logic = logic;
        }

        @Override
        protected void process(Msg msg) {
            if (logic.process(msg)) {
                exit();
            }
        }
    }

    /** The mall as a selector: creatures spread over its mailboxes, no guards ([Selectors] §2.1.3). */
    static final class MallSelector extends Selector<Msg, Numbered> {
        private final MallLogic logic;

        MallSelector(MallLogic logic, int mailboxes) {
            super(mailboxes);
            this.logic = logic;
        }

        @Override
        protected void process(Msg msg) {
            if (logic.process(msg)) {
                exit();
            }
        }
    }

    static final class Creature extends Actor<Msg> {
        private final ActorRef<Msg> mall;
        private final SelectorRef<Msg, ?> selectorMall;
        private final int box;
        private int color;
        private long meetings;

        Creature(ActorRef<Msg> mall, int box, int color) {
            this.mall = mall;
            this.selectorMall = mall instanceof SelectorRef<Msg, ?> s ? s : null;
            this.box = box;
            this.color = color;
        }

        private void toMall(Msg msg) {
            if (selectorMall != null) {
                selectorMall.send(box, msg);
            } else {
                mall.send(msg);
            }
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Go g -> toMall(new Meet(color, self()));
                case Meet m -> {
                    color = Chameneos.complement(color, m.color());
                    meetings++;
                    m.sender().send(new Change(color));
                    toMall(new Meet(color, self()));
                }
                case Change c -> {
                    color = c.color();
                    meetings++;
                    toMall(new Meet(color, self()));
                }
                case Exit e -> {
                    toMall(new MeetingCount(meetings));
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
