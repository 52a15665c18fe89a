package dev.switchboard.bench.boundedbuffer;

import dev.switchboard.bench.harness.Benchmark;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina producer-consumer with a bounded buffer ({@code bndbuffer}), [Selectors] §7; the two Switchboard variants
 * ({@link BoundedBufferImperative}, {@link BoundedBufferDeclarative}) share the parameters, the checksum and the
 * Pekko side. Producers send items to a buffer manager, which asks a producer for its next item once it has
 * stored the last one and hands items to consumers that ask for work. The manager holds at most
 * {@code bufferSize − producers} items (Savina's adjusted size, since every producer may have one more item on
 * its way). On Switchboard the manager is a selector with a PRODUCER and a CONSUMER mailbox that it closes when
 * the buffer is full or empty; on Pekko it keeps explicit queues of waiting producers and consumers.
 *
 * <p>Producing and consuming cost {@code cost} units of {@link #ROUNDS_PER_UNIT} rounds of a 64-bit mixing
 * function: deterministic and identical on both sides. (Savina's unit, 100 calls of {@code Math.log} on a fresh
 * {@code Random}, is some 50 times slower and would turn the benchmark into a measure of {@code Math.log}.)
 *
 * <p>Checksum: items consumed × 1,000,003 + the sum of their values (mod 2<sup>64</sup>), which does not
 * depend on which consumer got which item.
 */
abstract sealed class BoundedBufferBenchmark implements Benchmark
        permits BoundedBufferImperative, BoundedBufferDeclarative {
    static final int ROUNDS_PER_UNIT = 4;

    final int bufferSize;
    final int producers;
    final int consumers;
    final int itemsPerProducer;
    final int produceCost;
    final int consumeCost;

    BoundedBufferBenchmark(int bufferSize, int producers, int consumers, int itemsPerProducer, int produceCost,
            int consumeCost) {
        if (producers < 1 || consumers < 1 || itemsPerProducer < 1 || produceCost < 0 || consumeCost < 0) {
            throw new IllegalArgumentException("producers, consumers and items must be positive, costs not negative");
        }
        this.bufferSize = bufferSize;
        this.producers = producers;
        this.consumers = consumers;
        this.itemsPerProducer = itemsPerProducer;
        this.produceCost = produceCost;
        this.consumeCost = consumeCost;
    }

    /**
     * Savina's defaults (buffer 50, 40 producers, 40 consumers, costs 25 and 25) with 5,000 items per producer
     * instead of 1,000, so that a run takes long enough (some 0.2 s on Pekko) to be timed on a noisy machine.
     */
    BoundedBufferBenchmark() {
        this(50, 40, 40, 5_000, 25, 25);
    }

    /** Items the manager holds before it stops taking producers' items (Savina's adjusted buffer size). */
    final int threshold() {
        return Math.max(1, bufferSize - producers);
    }

    final long totalItems() {
        return (long) producers * itemsPerProducer;
    }

    @Override
    public final Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("buffer_size", bufferSize);
        p.put("producers", producers);
        p.put("consumers", consumers);
        p.put("items_per_producer", itemsPerProducer);
        p.put("produce_cost", produceCost);
        p.put("consume_cost", consumeCost);
        p.put("rounds_per_cost_unit", ROUNDS_PER_UNIT);
        return p;
    }

    /** Computing the items takes as long as a run's share of work, and the harness asks after every run. */
    private volatile Long expected;

    @Override
    public final long expected() {
        Long e = expected;
        if (e == null) {
            e = computeExpected();
            expected = e;
        }
        return e;
    }

    private long computeExpected() {
        long sum = 0;
        for (int p = 0; p < producers; p++) {
            long item = firstState(p);
            for (int i = 0; i < itemsPerProducer; i++) {
                item = work(item, produceCost);
                sum += item;
            }
        }
        return checksum(totalItems(), sum);
    }

    @Override
    public final long runPekko(ActorSystem system) throws Exception {
        return PekkoBoundedBuffer.run(system, this);
    }

    static long checksum(long consumed, long sum) {
        return consumed * 1_000_003L + sum;
    }

    /** The state a producer's sequence of items starts from. */
    static long firstState(int producer) {
        return 0x9E3779B97F4A7C15L * (producer + 1);
    }

    /** Burns {@code cost} units of CPU deterministically (a SplitMix64-style mixing step per round). */
    static long work(long x, int cost) {
        long z = x;
        for (int i = cost * ROUNDS_PER_UNIT; i > 0; i--) {
            z += 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
        }
        return z;
    }
}
