package dev.switchboard.bench.fjthroughput;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.bench.Computation;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.LongAdder;

final class SwitchboardForkJoinThroughput {
    enum Work { INSTANCE }

    private SwitchboardForkJoinThroughput() {
    }

    static long run(TaskRuntime runtime, int actors, int messages) {
        LongAdder processed = new LongAdder();
        runtime.finish(() -> {
            ActorRef<Work>[] all = ActorRef.newArray(actors);
            for (int i = 0; i < actors; i++) {
                all[i] = new ThroughputActor(messages, processed).start();
            }
            for (int m = 0; m < messages; m++) {
                for (ActorRef<Work> a : all) {
                    a.send(Work.INSTANCE);
                }
            }
        });
        return processed.sum();
    }

    static long runSelectors(TaskRuntime runtime, int actors, int messages, int mailboxes,
            ForkJoinThroughput.SendPattern pattern) {
        LongAdder processed = new LongAdder();
        runtime.finish(() -> {
            SelectorRef<Work, Numbered>[] all = SelectorRef.newArray(actors);
            for (int i = 0; i < actors; i++) {
                all[i] = new ThroughputSelector(messages, mailboxes, processed).start();
            }
            for (int m = 0; m < messages; m++) {
                int box = pattern.mailbox(m, mailboxes);
                for (SelectorRef<Work, Numbered> a : all) {
                    a.send(box, Work.INSTANCE);
                }
            }
        });
        return processed.sum();
    }

    /** The same actor as a selector: no guards, the default (priority) selection. */
    static final class ThroughputSelector extends Selector<Work, Numbered> {
        private final int messages;
        private final LongAdder processed;
        private int count;

        ThroughputSelector(int messages, int mailboxes, LongAdder processed) {
            super(mailboxes);
            this.messages = messages;
            this.processed = processed;
        }

        @Override
        protected void process(Work msg) {
            Computation.perform(ForkJoinThroughput.THETA);
            if (++count == messages) {
                processed.add(count);
                exit();
            }
        }
    }

    static final class ThroughputActor extends Actor<Work> {
        private final int messages;
        private final LongAdder processed;
        private int count;

        ThroughputActor(int messages, LongAdder processed) {
            this.messages = messages;
            this.processed = processed;
        }

        @Override
        protected void process(Work msg) {
            Computation.perform(ForkJoinThroughput.THETA);
            if (++count == messages) {
                processed.add(count);
                exit();
            }
        }
    }
}
