package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Threads that are not workers each see their own finish, whatever the others enter and leave in between (the
 * context of such a thread is answered from a record of the last one to enter a finish when it is its own).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForeignThreadContextTest {
    static final int THREADS = 3;
    static final int ROUNDS = 3_000;

    @Test
    void eachThreadOutsideThePoolSeesItsOwnRuntimeInsideEveryFinishAndNoneOfThemOutside() throws Exception {
        List<TaskRuntime> runtimes = new ArrayList<>();
        try {
            for (int i = 0; i < THREADS; i++) {
                runtimes.add(TaskRuntime.builder().name("runtime-" + i).workers(1).build());
            }
            // Every step, all threads change their context together: enter a finish, nest one, leave both.
            Phaser steps = new Phaser(THREADS);
            List<CompletableFuture<List<String>>> seen = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                TaskRuntime rt = runtimes.get(i);
                CompletableFuture<List<String>> wrong = new CompletableFuture<>();
                seen.add(wrong);
                Thread.ofPlatform().name("outside-" + i).start(() -> {
                    List<String> mismatches = new ArrayList<>();
                    try {
                        for (int r = 0; r < ROUNDS; r++) {
                            steps.arriveAndAwaitAdvance();
                            rt.finish(() -> {
                                check(rt, "in the finish", mismatches);
                                steps.arriveAndAwaitAdvance();
                                rt.finish(() -> check(rt, "in a nested finish", mismatches));
                                check(rt, "back in the outer finish", mismatches);
                                DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
                                assertThat(f.toString()).contains("thread '" + Thread.currentThread().getName());
                            });
                            steps.arriveAndAwaitAdvance();
                            if (runtimes.contains(TaskRuntime.current())) {
                                mismatches.add("outside every finish: " + TaskRuntime.current());
                            }
                        }
                        wrong.complete(mismatches);
                    } catch (Throwable t) {
                        wrong.completeExceptionally(t);
                        steps.forceTermination();
                    }
                });
            }
            for (CompletableFuture<List<String>> w : seen) {
                assertThat(w.get(100, TimeUnit.SECONDS)).isEmpty();
            }
        } finally {
            runtimes.forEach(TaskRuntime::close);
        }
    }

    private static void check(TaskRuntime expected, String where, List<String> mismatches) {
        TaskRuntime current = TaskRuntime.current();
        if (current != expected) {
            mismatches.add(where + ": " + current + " instead of " + expected);
        }
    }
}
