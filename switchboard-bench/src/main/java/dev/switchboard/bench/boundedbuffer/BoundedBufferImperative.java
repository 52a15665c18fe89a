package dev.switchboard.bench.boundedbuffer;

import dev.switchboard.task.TaskRuntime;

/**
 * Bounded buffer (Savina {@code bndbuffer}, [Selectors] §7) with the buffer manager as a selector that enables and
 * disables its PRODUCER and CONSUMER mailboxes itself as the buffer fills and empties (the paper's HSI version).
 */
public final class BoundedBufferImperative extends BoundedBufferBenchmark {
    public BoundedBufferImperative(int bufferSize, int producers, int consumers, int itemsPerProducer,
            int produceCost, int consumeCost) {
        super(bufferSize, producers, consumers, itemsPerProducer, produceCost, consumeCost);
    }

    /** Savina's defaults with 5,000 items per producer (see {@link BoundedBufferBenchmark}). */
    public BoundedBufferImperative() {
    }

    @Override
    public String name() {
        return "BoundedBufferImperative";
    }

    @Override
    public String description() {
        return "producers and consumers through a bounded-buffer manager; selector with enable/disable vs Pekko"
                + " waiting queues (Savina bndbuffer, [Selectors] §7; items per producer 1,000 -> 5,000)";
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardBoundedBuffer.run(runtime, this, false);
    }
}
