package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an idle actor and an idle selector keep on the heap: no queue before the first message, nothing of the
 * state only some actors need, and, measured over many actors, at most 200 bytes per idle actor and 100 bytes per
 * mailbox of an idle selector beyond that (issue 13 §3; about 160, and 4 per mailbox, when this was written). The
 * measurement compares the heap after full collections; it involves no timing. The bench module's
 * {@code ActorFootprint} prints the same figures.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FootprintTest {
    static final int ACTORS = 100_000;
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    static final class Idle extends Actor<Object> {
        @Override
        protected void process(Object message) {
            if (message instanceof DataDrivenFuture<?> f) {
                @SuppressWarnings("unchecked")
                DataDrivenFuture<Object> d = (DataDrivenFuture<Object>) f;
                d.put(Boolean.TRUE);
            } else {
                exit();
            }
        }
    }

    static final class IdleSelector extends Selector<Object, Selector.Numbered> {
        IdleSelector(int mailboxes) {
            super(mailboxes);
        }

        @Override
        protected void process(Object message) {
            exit();
        }
    }

    @Test
    void anIdleActorHasNoQueueAndNoExtrasUntilItNeedsThem() {
        rt.finish(() -> {
            Idle a = new Idle();
            ActorRef<Object> ref = a.start();
            SingleMailbox box = (SingleMailbox) a.mailbox;
            assertThat(box.hasQueue()).as("queue before the first message").isFalse();
            assertThat((a.extrasOrNull() != null)).as("extras of an idle actor").isFalse();
            assertThat(a.mailboxSize()).isZero();
            assertThat(a.deadLetterCount()).isZero();

            DataDrivenFuture<Object> done = new DataDrivenFuture<>();
            ref.send(done);
            done.get();
            assertThat(box.hasQueue()).as("queue after the first message").isTrue();
            assertThat((a.extrasOrNull() != null)).as("extras after a plain message").isFalse();
            ref.send("exit");
        });
    }

    @Test
    void aSelectorCreatesTheQueueOfAMailboxWithItsFirstMessage() {
        for (int mailboxes : new int[] {2, 11, 70}) {      // direct scan, one bitmap word, two words
            rt.finish(() -> {
                IdleSelector s = new IdleSelector(mailboxes);
                s.disable(1);
                SelectorRef<Object, Selector.Numbered> ref = s.start();
                GuardedMailboxes boxes = (GuardedMailboxes) s.mailbox;
                assertThat(boxes.queuesCreated()).as("queues of an idle selector of %d", mailboxes).isZero();
                assertThat((s.extrasOrNull() != null)).isFalse();
                ref.send(1, "waits in the disabled mailbox 1");
                assertThat(boxes.queuesCreated()).isEqualTo(1);
                assertThat(s.mailboxSize(1)).isEqualTo(1);
                assertThat(s.mailboxSize(0)).isZero();
                ref.send(0, "exit");                          // processed; mailbox 1's message becomes a dead letter
            });
        }
    }

    @Test
    void anIdleActorKeepsAtMost200Bytes() {
        assertThat(bytesPerIdle(i -> new Idle())).isLessThanOrEqualTo(200);
    }

    @Test
    void eachMailboxOfAnIdleSelectorKeepsAtMost100BytesBeyondAnActor() {
        assertThat(bytesPerIdle(i -> new IdleSelector(2))).isLessThanOrEqualTo(200 + 2 * 100);
        assertThat(bytesPerIdle(i -> new IdleSelector(11))).isLessThanOrEqualTo(200 + 11 * 100);
    }

    /**
     * Bytes retained per started, idle actor made by {@code create}, over {@link #ACTORS} of them: the least of
     * three measurements, since something else allocating meanwhile can only add to a reading.
     */
    static long bytesPerIdle(IntFunction<ActorCore<Object>> create) {
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3; attempt++) {
            ActorRef<?>[] refs = new ActorRef<?>[ACTORS];
            long[] retained = new long[1];
            rt.finish(() -> {
                long before = usedAfterGc();
                for (int i = 0; i < ACTORS; i++) {
                    refs[i] = create.apply(i).start();
                }
                retained[0] = usedAfterGc() - before;
                for (ActorRef<?> r : refs) {
                    @SuppressWarnings("unchecked")
                    ActorRef<Object> o = (ActorRef<Object>) r;
                    o.send("exit");                            // any message makes them exit
                }
            });
            best = Math.min(best, retained[0] / ACTORS);
        }
        return best;
    }

    static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long now = memory.getHeapMemoryUsage().getUsed();
            if (i >= 2 && now >= used) {
                break;
            }
            used = Math.min(used, now);
        }
        return used;
    }
}
