package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runtime can say which actors and tasks keep a finish open. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HangDiagnosticTest {

    static final class PongActor extends Actor<String> {
        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    @Test
    void finishWithTimeoutNamesTheActorThatNeverExited() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            PongActor forgotten = new PongActor();
            PongActor fine = new PongActor();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
                forgotten.start();
                forgotten.send("ping");
                fine.start();
                fine.send("stop");
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("actor " + forgotten + " started by thread '" + Thread.currentThread().getName())
                    .hasMessageContaining("never exited")
                    .hasMessageContaining("1 processed")
                    .hasMessageNotContaining(fine.toString());
            assertThat(((FinishTimeoutException) thrown).openItems()).hasSize(1);
            // the actor is still alive; let it go
            rt.finish(() -> forgotten.send("stop"));
        }
    }

    @Test
    void awaitingTaskOnAFutureThatIsNeverPutIsReported() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200),
                    () -> rt.asyncAwait(never, () -> { })));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("asyncAwait task created by thread")
                    .hasMessageContaining("still waiting for 1 of 1")
                    .hasMessageContaining(never.toString());
            never.put(1);
        }
    }

    @Test
    void hangReportAfterReportsOnceAndTheFinishStillCompletes() {
        ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(100))
                .hangReporter(r -> {
                    reports.add(r);
                    reported.countDown();
                }).build()) {
            PongActor slow = new PongActor();
            rt.finish(() -> {
                slow.start();
                rt.async(() -> {
                    try {
                        reported.await(30, TimeUnit.SECONDS);   // exit only after the report was made
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    slow.send("stop");
                });
            });
            assertThat(reports).hasSize(1);
            assertThat(reports.peek()).startsWith("Switchboard hang diagnostic: finish opened by thread")
                    .contains("actor " + slow).contains("never exited")
                    .contains("pool: ").contains(" of 2 workers active, ").contains("tasks queued in worker deques")
                    .containsPattern("-worker-1 [A-Z_]+, \\d+ nodes started");  // workers start lazily
        }
    }

    @Test
    void diagnoseOnDemandWhileAFinishWaits() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            PongActor stuck = new PongActor();
            CountDownLatch started = new CountDownLatch(1);
            Thread waiter = new Thread(() -> rt.finish(() -> {
                stuck.start();
                started.countDown();
            }));
            waiter.start();
            started.await(30, TimeUnit.SECONDS);
            List<String> reports = List.of();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {   // the waiter registers once its body has returned
                reports = rt.diagnose();
                if (!reports.isEmpty()) {
                    break;
                }
                Thread.onSpinWait();
            }
            assertThat(reports).hasSize(1);
            assertThat(reports.get(0)).contains("actor " + stuck).contains("never exited").contains("idle");
            rt.async(() -> stuck.send("stop"));    // any sender will do; the actor exits
            waiter.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(waiter.isAlive()).isFalse();
            assertThat(rt.diagnose()).isEmpty();
        }
    }
}
