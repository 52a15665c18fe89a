package dev.switchboard.docs;

// tag::imports[]
import static dev.switchboard.Switchboard.*;   // finish, async, future, ddf, asyncAwait, forall, forasync
import dev.switchboard.actor.*;                // Actor, Selector, StatelessActor, ActorRef, SelectorRef
import dev.switchboard.monitor.*;              // Monitor, Category, ReadersWriterMonitor, ...
import dev.switchboard.task.*;                 // TaskRuntime, DataDrivenFuture, DataDrivenControl, ...
// end::imports[]

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The scaffold of the guide's sections "Runtimes" and "Tasks" (and its imports); GuideTasksTest runs each. The
 * static methods of Switchboard act on the default runtime here.
 */
final class GuideTasks {
    private GuideTasks() {
    }

    /** A logger as the guide's fragments use one. */
    interface Log {
        void warn(String format, Object argument);
    }

    /** The guide's imports, each package used. */
    static List<Class<?>> imported() {
        return List.of(Actor.class, Monitor.class, TaskRuntime.class);
    }

    /** Installs the guide's shutdown hook for {@code runtime}, and returns it. */
    static Thread closeAtTheJvmsExit(TaskRuntime runtime) {
        // tag::shutdown-hook[]
        Thread hook = new Thread(() -> runtime.close(Duration.ofSeconds(10)), "shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        // end::shutdown-hook[]
        return hook;
    }

    static int runtime(Log log) {
        int[] ran = {0};
        // tag::runtime[]
        try (TaskRuntime rt = TaskRuntime.builder()
                .workers(2)                                   // default: available processors
                .throughput(64)                               // messages per actor activation (the budget)
                .hangReportAfter(Duration.ofSeconds(30))      // default 10 s; noHangReports() turns them off
                .build()) {
            DeadLetter.subscribe(rt, d -> log.warn("dead letter {}", d));   // closing the subscription unsubscribes
            rt.finish(() -> { /*...*/ });
        // end::runtime[]
            rt.finish(() -> {
                ran[0]++;
                ActorRef<String> once = new Actor<String>() {
                    @Override
                    protected void process(String message) {
                        exit();
                    }
                }.start();
                once.send("processed");
                once.send("a dead letter");
            });
        // tag::runtime[]
        }
        // end::runtime[]
        return ran[0];
    }

    static int idleSpin() {
        // tag::idle-spin[]
        TaskRuntime rt = TaskRuntime.builder().workers(2).idleSpin(Duration.of(50, ChronoUnit.MICROS)).build();
        // end::idle-spin[]
        try (rt) {
            return rt.workers();
        }
    }

    /** Prints as the guide's example does; GuideTasksTest reads what it printed. */
    static void finishAndAsync() {
        // tag::finish-async[]
        finish(() -> {
            async(() -> System.out.println("Task A"));
            async(() -> {
                System.out.println("Task B");
                async(() -> System.out.println("Task B1"));   // also waited for
            });
        });
        System.out.println("Task C");                         // after A, B and B1
        // end::finish-async[]
    }

    static long sum(long[] a, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += a[i];
        }
        return s;
    }

    static long finishWithValue(long[] a) {
        int n = a.length;
        int mid = n / 2;
        // tag::finish-value[]
        long total = finish(() -> {
            TaskFuture<Long> left = future(() -> sum(a, 0, mid));
            return sum(a, mid, n) + left.get();
        });
        // end::finish-value[]
        return total;
    }

    /** Returns what {@code apply} got, or the failure's class if the IOException was handled. */
    static String checked(Path logFile, Path configFile) throws Exception {
        // tag::checked[]
        try {
            finish(() -> {
                async(() -> Files.writeString(logFile, "started"));
                TaskFuture<String> config = future(() -> Files.readString(configFile));
                apply(config.get());                        // CompletionException if the read failed
            });
        } catch (Exception e) {
            if (!(e instanceof IOException io)) throw e;   // a single failure is rethrown as itself
            /*...*/                                            // a failed read too (get()'s rethrow counts once)
        // end::checked[]
            return "handled " + io.getClass().getSimpleName();
        // tag::checked[]
        }
        // end::checked[]
        return String.join(",", CHECKED_APPLIED);
    }

    static final Queue<String> CHECKED_APPLIED = new ConcurrentLinkedQueue<>();

    static void apply(String config) {
        CHECKED_APPLIED.add(config);
    }

    static Integer expensive() {
        return 6 * 7;
    }

    static final Queue<String> USED = new ConcurrentLinkedQueue<>();

    static void use(Integer number, String text) {
        USED.add(number + " " + text);
    }

    static void futures() {
        finish(() -> {
            // tag::futures[]
            TaskFuture<Integer> f = future(() -> expensive());     // a task that computes a value
            DataDrivenFuture<String> d = ddf();                    // filled by someone's put
            asyncAwait(f, d, () -> use(f.get(), d.get()));         // runs once both are done
            d.put("value");                                        // exactly once; a second put is an error
            // end::futures[]
        });
    }

    static int f(int i) {
        return i * i;
    }

    static int g(int i) {
        return -i;
    }

    static int[][] loops(int n) {
        int[] a = new int[n];
        int[] b = new int[n];
        // tag::loops[]
        forall(0, n, i -> a[i] = f(i));              // runs all iterations in parallel and waits
        finish(() -> forasync(0, n, 1024, i -> b[i] = g(i))); // spawns them in chunks of 1024 in the current finish
        // end::loops[]
        return new int[][] {a, b};
    }
}
