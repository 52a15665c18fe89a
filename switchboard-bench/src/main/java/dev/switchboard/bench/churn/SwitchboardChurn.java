package dev.switchboard.bench.churn;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.bench.churn.Churn.Params;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.LongAdder;

/** Churn on Switchboard: spawner actors create worker actors (or selectors) inside their processing. */
final class SwitchboardChurn {
    enum Start { INSTANCE }

    private SwitchboardChurn() {
    }

    static long run(TaskRuntime runtime, Params p, Churn.Kind kind) {
        LongAdder total = new LongAdder();
        runtime.finish(() -> {
            for (int s = 0; s < p.spawners(); s++) {
                ActorRef<Start> spawner = new Spawner(s, p, kind, total).start();
                spawner.send(Start.INSTANCE);
            }
        });
        return total.sum();
    }

    /** Creates its workers, sends each its numbers, and exits. */
    static final class Spawner extends Actor<Start> {
        private final int index;
        private final Params p;
        private final Churn.Kind kind;
        private final LongAdder total;

        Spawner(int index, Params p, Churn.Kind kind, LongAdder total) {
            this.index = index;
            this.p = p;
            this.kind = kind;
            this.total = total;
        }

        @Override
        protected void process(Start start) {
            for (int w = 0; w < p.perSpawner(); w++) {
                if (kind == Churn.Kind.ACTOR) {
                    ActorRef<Long> worker = new Worker(p.messages(), total).start();
                    for (int k = 0; k < p.messages(); k++) {
                        worker.send(p.value(index, w, k));
                    }
                } else {
                    SelectorRef<Long, Numbered> worker = new SelectorWorker(p.messages(), total).start();
                    for (int k = 0; k < p.messages(); k++) {
                        worker.send(k, p.value(index, w, k));
                    }
                }
            }
            exit();
        }
    }

    /** Adds up its numbers; after the last, adds its sum to the total and exits. */
    static final class Worker extends Actor<Long> {
        private final LongAdder total;
        private int left;
        private long sum;

        Worker(int messages, LongAdder total) {
            this.left = messages;
            this.total = total;
        }

        @Override
        protected void process(Long value) {
            sum += value;
            if (--left == 0) {
                total.add(sum);
                exit();
            }
        }
    }

    /** The same as a selector of {@link Churn#SELECTOR_MAILBOXES} mailboxes, its k-th message in mailbox k. */
    static final class SelectorWorker extends Selector<Long, Numbered> {
        private final LongAdder total;
        private int left;
        private long sum;

        SelectorWorker(int messages, LongAdder total) {
            super(Churn.SELECTOR_MAILBOXES);
            this.left = messages;
            this.total = total;
        }

        @Override
        protected void process(Long value) {
            sum += value;
            if (--left == 0) {
                total.add(sum);
                exit();
            }
        }
    }
}
