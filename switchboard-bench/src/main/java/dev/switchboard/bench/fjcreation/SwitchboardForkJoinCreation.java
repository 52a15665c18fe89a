package dev.switchboard.bench.fjcreation;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.Computation;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicInteger;

final class SwitchboardForkJoinCreation {
    enum Work { INSTANCE }

    private SwitchboardForkJoinCreation() {
    }

    static long run(TaskRuntime runtime, int actors) {
        AtomicInteger processed = new AtomicInteger();
        runtime.finish(() -> {
            for (int i = 0; i < actors; i++) {
                ActorRef<Work> a = new CreatedActor(processed).start();
                a.send(Work.INSTANCE);
            }
        });
        return processed.get();
    }

    static final class CreatedActor extends Actor<Work> {
        private final AtomicInteger processed;

        CreatedActor(AtomicInteger processed) {
            this.processed = processed;
        }

        @Override
        protected void process(Work msg) {
            Computation.perform(ForkJoinCreation.THETA);
            processed.incrementAndGet();
            exit();
        }
    }
}
