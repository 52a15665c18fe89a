package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.task.RuntimeClosedException;
import dev.switchboard.task.TaskRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The guide's examples of "Runtimes" and "Tasks" run, with the outcomes the guide says. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuideTasksTest {
    @Test
    void theShutdownHookClosesTheRuntimeAndEndsItsActorsAndTheFinishWaitingForThem() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("service").workers(2).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch exited = new CountDownLatch(1);
        CompletableFuture<Throwable> service = CompletableFuture.supplyAsync(
                () -> catchThrowable(() -> rt.finish(() -> new Actor<String>() {
                    @Override
                    protected void process(String m) {
                    }

                    @Override
                    protected void onStart() {
                        started.countDown();
                    }

                    @Override
                    protected void onExit() {
                        exited.countDown();
                    }
                }.start("service"))));
        assertThat(started.await(30, TimeUnit.SECONDS)).as("the service runs").isTrue();
        Thread hook = GuideTasks.closeAtTheJvmsExit(rt);
        assertThat(Runtime.getRuntime().removeShutdownHook(hook)).as("installed").isTrue();
        hook.run();                                              // what the JVM does at its exit
        assertThat(rt.isClosed()).isTrue();
        assertThat(exited.await(30, TimeUnit.SECONDS)).as("onExit ran").isTrue();
        assertThat(service.get(30, TimeUnit.SECONDS)).isInstanceOf(RuntimeClosedException.class);
    }

    @Test
    void aRuntimeOfItsOwnRunsItsFinishesAndReportsDeadLettersToTheListener() {
        List<Object> warned = new ArrayList<>();
        assertThat(GuideTasks.runtime((format, argument) -> {
            synchronized (warned) {
                warned.add(argument);
            }
        })).isEqualTo(1);
        synchronized (warned) {
            assertThat(warned).hasSize(1);   // the message sent after the actor's exit... or never processed
        }
    }

    @Test
    void anIdleSpinningRuntimeHasItsWorkers() {
        assertThat(GuideTasks.idleSpin()).isEqualTo(2);
    }

    @Test
    void cComesAfterAAndBAndB1() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            GuideTasks.finishAndAsync();
        } finally {
            System.setOut(out);
        }
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith("Task ")).toList();
        assertThat(lines).containsExactlyInAnyOrder("Task A", "Task B", "Task B1", "Task C");
        assertThat(lines.get(3)).isEqualTo("Task C");
        assertThat(lines.indexOf("Task B")).isLessThan(lines.indexOf("Task B1"));
    }

    @Test
    void aFinishReturnsItsBodysValue() {
        long[] a = LongStream.rangeClosed(1, 1_000).toArray();
        assertThat(GuideTasks.finishWithValue(a)).isEqualTo(500_500);
    }

    @Test
    void checkedExceptionsTravelAsThemselves(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("app.conf"), "debug=true");
        GuideTasks.CHECKED_APPLIED.clear();
        assertThat(GuideTasks.checked(dir.resolve("log"), config)).isEqualTo("debug=true");
        assertThat(Files.readString(dir.resolve("log"))).isEqualTo("started");
        // a log file that cannot be written: the task's IOException is the finish's one failure, as itself
        assertThat(GuideTasks.checked(dir.resolve("no-such-dir/log"), config)).isEqualTo("handled NoSuchFileException");
        // a config that cannot be read: the future's failure and get()'s rethrow of it are one failure, as itself
        assertThat(GuideTasks.checked(dir.resolve("log2"), dir.resolve("missing.conf")))
                .isEqualTo("handled NoSuchFileException");
    }

    @Test
    void asyncAwaitRunsOnceBothFuturesAreThere() {
        GuideTasks.USED.clear();
        GuideTasks.futures();
        assertThat(GuideTasks.USED).containsExactly("42 value");
    }

    @Test
    void everyIterationOfBothLoopsRuns() {
        int[][] ab = GuideTasks.loops(5_000);
        for (int i = 0; i < 5_000; i++) {
            assertThat(ab[0][i]).isEqualTo(i * i);
            assertThat(ab[1][i]).isEqualTo(-i);
        }
    }
}
