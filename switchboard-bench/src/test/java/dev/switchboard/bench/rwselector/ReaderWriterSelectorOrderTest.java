package dev.switchboard.bench.rwselector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

/**
 * A control message is not taken before the reads and writes sent ahead of it, also while a write waits for readers
 * in flight: it waits for the write, and comes after the reads queued behind the write (reads started as tasks may
 * still be running when it is processed).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReaderWriterSelectorOrderTest {
    sealed interface Request permits Read, Write, Control {
    }

    /** A read; the first one of the test holds its task until {@code gate} opens. */
    record Read(CountDownLatch started, CountDownLatch gate) implements Request {
    }

    record Write() implements Request {
    }

    /** Answers how many writes had been processed when it was. */
    record Control(DataDrivenFuture<Integer> writesBefore) implements Request {
    }

    static final class Store extends ReaderWriterSelector<Request> {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();

        Store(Policy policy) {
            super(policy);
        }

        @Override
        protected boolean isWrite(Request message) {
            return message instanceof Write;
        }

        @Override
        protected boolean isControl(Request message) {
            return message instanceof Control;
        }

        @Override
        protected void processRead(Request message) {
            Read read = (Read) message;
            if (read.gate() != null) {
                read.started().countDown();
                try {
                    assertThat(read.gate().await(30, TimeUnit.SECONDS)).as("the gate opened").isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            reads.incrementAndGet();
        }

        @Override
        protected void processWrite(Request message) {
            writes.incrementAndGet();
        }

        @Override
        protected void processControl(Request message) {
            ((Control) message).writesBefore().put(writes.get());
            exit();
        }
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void aControlMessageDoesNotOvertakeReadsWaitingBehindAWrite(Policy policy) throws Exception {
        Store store = new Store(policy);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        DataDrivenFuture<Integer> writesBefore = new DataDrivenFuture<>();
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            runtime.finish(Duration.ofSeconds(50), () -> {
                ActorRef<Request> ref = store.start();
                ref.send(new Read(started, gate));              // the selector's first reads run as tasks
                assertThat(started.await(30, TimeUnit.SECONDS)).as("the first read started").isTrue();
                ref.send(new Write());                          // waits for the first read
                ref.send(new Read(null, null));
                ref.send(new Read(null, null));
                ref.send(new Control(writesBefore));
                // While the first read holds its task, the control message must not be served: the write and the
                // two reads are ahead of it. (Served early, it answers within this wait; a slow machine could only
                // hide that, not fail a correct selector.)
                try {
                    assertThatThrownBy(() -> writesBefore.get(Duration.ofMillis(500)))
                            .as("the control message was served before the write and reads sent ahead of it")
                            .isInstanceOf(TimeoutException.class);
                } finally {
                    gate.countDown();
                }
            });
        }
        assertThat(writesBefore.get(Duration.ofSeconds(1))).as("the write before the control message").isEqualTo(1);
        assertThat(store.reads.get()).as("reads, by the end of the finish").isEqualTo(3);
    }
}
