package dev.switchboard.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.jctools.queues.atomic.MpscGrowableAtomicArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The actor mailbox (a JCTools MPSC growable array queue on atomic field updaters, as {@code Actor} creates it):
 * enqueue followed by dequeue on one thread, and one producer against one consumer.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MailboxBenchmark {
    static final Object MESSAGE = new Object();

    @State(Scope.Thread)
    public static class Local {
        MpscGrowableAtomicArrayQueue<Object> mailbox;

        @Setup
        public void setUp() {
            mailbox = new MpscGrowableAtomicArrayQueue<>(16, 1 << 30);
        }
    }

    /** One enqueue and one dequeue, uncontended: the per-message queue cost of a warm actor. */
    @Benchmark
    public Object enqueueDequeue(Local s) {
        s.mailbox.offer(MESSAGE);
        return s.mailbox.poll();
    }

    @State(Scope.Group)
    public static class Shared {
        MpscGrowableAtomicArrayQueue<Object> mailbox;

        @Setup
        public void setUp() {
            mailbox = new MpscGrowableAtomicArrayQueue<>(16, 1 << 30);
        }
    }

    /** A sender and the actor's consumer on different cores. */
    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public boolean enqueue(Shared s) {
        return s.mailbox.size() < 100_000 && s.mailbox.offer(MESSAGE);
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void dequeue(Shared s, Blackhole bh) {
        bh.consume(s.mailbox.poll());
    }
}
