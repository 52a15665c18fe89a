package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * For the jcstress tests of the shared queue: a pump sink that records the pumps instead of running them, and
 * entries that count their runs.
 */
final class PumpRecorder implements RunQueue.PumpSink {
    private final List<RunQueue.Pump> pumps = new ArrayList<>();
    /** Runs of the entries made by {@link #entry()}. */
    final AtomicInteger ran = new AtomicInteger();

    @Override
    public void submit(RunQueue.Pump pump, boolean onWorker) {
        synchronized (pumps) {
            pumps.add(pump);
        }
    }

    /** The {@code i}-th pump submitted, or null if fewer were. */
    RunQueue.Pump pump(int i) {
        synchronized (pumps) {
            return i < pumps.size() ? pumps.get(i) : null;
        }
    }

    /** Runs every pump from the {@code from}-th on, in the order submitted, those they submit included. */
    void runPumps(int from) {
        RunQueue.Pump next;
        for (int i = from; (next = pump(i)) != null; i++) {
            next.compute();
        }
    }

    /** A new entry that counts its runs in {@link #ran}. */
    Node entry() {
        return new Node(null, Leaf.SCHEDULER) {
            @Override
            protected void run() {
                ran.incrementAndGet();
            }
        };
    }
}
