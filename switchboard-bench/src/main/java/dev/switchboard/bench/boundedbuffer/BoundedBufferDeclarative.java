package dev.switchboard.bench.boundedbuffer;

import dev.switchboard.task.TaskRuntime;

/**
 * Bounded buffer (Savina {@code bndbuffer}, [Selectors] §7) with the buffer manager as a selector whose PRODUCER
 * and CONSUMER mailboxes are opened and closed by declarative guards (paper Fig. 19, the HSD version).
 */
public final class BoundedBufferDeclarative extends BoundedBufferBenchmark {
    public BoundedBufferDeclarative(int bufferSize, int producers, int consumers, int itemsPerProducer,
            int produceCost, int consumeCost) {
        super(bufferSize, producers, consumers, itemsPerProducer, produceCost, consumeCost);
    }

    /** Savina's defaults with 5,000 items per producer (see {@link BoundedBufferBenchmark}). */
    public BoundedBufferDeclarative() {
    }

    @Override
    public String name() {
        return "BoundedBufferDeclarative";
    }

    @Override
    public String description() {
        return "producers and consumers through a bounded-buffer manager; selector with declarative guards vs"
                + " Pekko waiting queues (Savina bndbuffer, [Selectors] §7, Fig. 19; items per producer 1,000 -> 5,000)";
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardBoundedBuffer.run(runtime, this, true);
    }
}
