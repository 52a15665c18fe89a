package dev.switchboard.bench.harness;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Finds the threads of an idle runtime that keep a core busy anyway. On the JDK the figures come from, a Pekko
 * system's {@code ForkJoinPool} sometimes leaves a worker spinning for the rest of the JVM's life with no work at
 * all (in {@code WorkQueue.nextLocalTask}, waiting for a queue's base to move, or in {@code runWorker}'s scan of a
 * queue it sees stalled), and the system then cannot terminate. On two cores every figure measured beside such a
 * thread is measured on a shared machine, for both runtimes alike, so a run must find it and say so rather than
 * report those figures.
 *
 * <p>A look costs 20 ms: each thread's CPU time over a 20 ms pause, several of the kernel's time slices, so that
 * a spinning thread the scheduler set aside for a slice still shows. A thread that used 80 % of it is watched for
 * another 100 ms, and it is spinning if it used 80 % of that too; a worker finishing its last task, or spinning
 * briefly before it parks, does not.
 */
public final class SpinningThreads {
    static final long FIRST_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final long CONFIRM_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The share of a core a thread must use in both looks to count as spinning. */
    public static final double SHARE = 0.8;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SpinningThreads() {
    }

    /**
     * The live threads whose names start with {@code prefix} that keep a core busy, each as
     * {@code 'name' (98 ms of CPU in 100 ms)}; empty if none does (or the JVM cannot measure thread CPU time).
     */
    public static List<String> among(String prefix) {
        return among(prefix, SHARE);
    }

    /** {@link #among(String)} with another share of a core than {@link #SHARE} (a busy machine's tests). */
    static List<String> among(String prefix, double share) {
        if (!THREADS.isThreadCpuTimeSupported() || !THREADS.isThreadCpuTimeEnabled()) {
            return List.of();
        }
        Map<Long, String> named = threadsNamed(prefix);
        if (named.isEmpty()) {
            return List.of();
        }
        Map<Long, Long> busy = busyOver(named.keySet().stream().mapToLong(Long::longValue).toArray(),
                FIRST_LOOK_NANOS, share);
        if (busy.isEmpty()) {
            return List.of();
        }
        Map<Long, Long> spinning = busyOver(busy.keySet().stream().mapToLong(Long::longValue).toArray(),
                CONFIRM_NANOS, share);
        List<String> found = new ArrayList<>();
        spinning.forEach((id, cpu) -> found.add(String.format(Locale.ROOT, "'%s' (%.0f ms of CPU in %d ms)",
                named.get(id), cpu / 1e6, TimeUnit.NANOSECONDS.toMillis(CONFIRM_NANOS))));
        return found;
    }

    /** The live threads named {@code prefix...}, by id. */
    private static Map<Long, String> threadsNamed(String prefix) {
        Map<Long, String> named = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                named.put(info.getThreadId(), info.getThreadName());
            }
        }
        return named;
    }

    /** Of {@code ids}, those whose CPU time grew by at least {@code share} of a pause of {@code nanos}, with it. */
    private static Map<Long, Long> busyOver(long[] ids, long nanos, double share) {
        long[] before = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            before[i] = THREADS.getThreadCpuTime(ids[i]);
        }
        long start = System.nanoTime();
        long elapsed;
        while ((elapsed = System.nanoTime() - start) < nanos) {
            LockSupport.parkNanos(nanos - elapsed);
        }
        Map<Long, Long> busy = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            long after = THREADS.getThreadCpuTime(ids[i]);
            if (before[i] >= 0 && after >= 0 && after - before[i] >= share * elapsed) {
                busy.put(ids[i], after - before[i]);
            }
        }
        return busy;
    }
}
