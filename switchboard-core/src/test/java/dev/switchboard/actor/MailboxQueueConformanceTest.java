package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The conformance checks JCTools runs against its queues (its {@code QueueSanityTest}: the empty queue, FIFO
 * order with a size that follows every offer and poll, the same instance out as in, a bounded capacity, and three
 * races: publication of an element's fields, the size while one element comes and goes, and a poll after a
 * non-empty check), written again for {@link MailboxQueue}, which follows JCTools' growable MPSC queue, over
 * several initial and maximum capacities. The races run for a fixed number of elements, not for a time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MailboxQueueConformanceTest {
    static final int SIZE = 8192 * 2;
    static final int RACE_ELEMENTS = 200_000;

    static final class Val {
        int value;
    }

    @ParameterizedTest(name = "initial {0}, max {1}")
    @CsvSource({"2, 4", "2, 16384", "16, 16384", "16, 1073741824", "1024, 1073741824"})
    void anEmptyQueueStaysEmptyAndElementsComeOutInOrderWithTheSizeFollowing(int initial, int max) {
        MailboxQueue q = new MailboxQueue(initial, max);
        for (int i = 0; i < 100; i++) {
            assertThat(q.poll()).isNull();
            assertThat(q.isEmpty()).isTrue();
            assertThat(q.size()).isZero();
        }
        int offered = 0;
        while (offered < SIZE && q.offer(offered)) {
            offered++;
            assertThat(q.size()).isEqualTo(offered);
        }
        assertThat(offered).isEqualTo(Math.min(SIZE, max));
        for (int i = 0; i < offered; i++) {
            assertThat(q.poll()).isEqualTo(i);
            assertThat(q.size()).isEqualTo(offered - i - 1);
        }
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
    }

    @ParameterizedTest(name = "initial {0}, max {1}")
    @CsvSource({"2, 4", "16, 1073741824"})
    void theSameInstanceComesOutAndANullIsRefused(int initial, int max) {
        MailboxQueue q = new MailboxQueue(initial, max);
        Object element = new Object();
        assertThat(q.offer(element)).isTrue();
        assertThat(q.isEmpty()).isFalse();
        assertThat(q.size()).isEqualTo(1);
        assertThat(q.poll()).isSameAs(element);
        assertThat(q.isEmpty()).isTrue();
        assertThatThrownBy(() -> q.offer(null)).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest(name = "max {0}")
    @CsvSource({"2", "4", "64", "4096"})
    void aBoundedQueueTakesExactlyItsCapacity(int max) {
        MailboxQueue q = new MailboxQueue(2, max);
        for (int i = 0; i < max; i++) {
            assertThat(q.offer(i)).as("offer %d of %d", i, max).isTrue();
        }
        assertThat(q.offer(max)).isFalse();
        assertThat(q.poll()).isEqualTo(0);
        assertThat(q.offer(max)).isTrue();
    }

    @ParameterizedTest(name = "initial {0}, max {1}")
    @CsvSource({"2, 16384", "16, 1073741824"})
    void aPolledElementShowsTheFieldsItsProducerWroteBeforeOfferingIt(int initial, int max) throws Exception {
        MailboxQueue q = new MailboxQueue(initial, max);
        AtomicLong unset = new AtomicLong();
        Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < RACE_ELEMENTS; i++) {
                Val v = new Val();
                v.value = i + 1;
                while (!q.offer(v)) {
                    Thread.onSpinWait();
                }
                if ((i & 15) == 0) {
                    Thread.yield();                  // keep the queue mostly empty, where visibility is tested
                }
            }
        });
        int taken = 0;
        while (taken < RACE_ELEMENTS) {
            Object e = q.poll();
            if (e == null) {
                Thread.onSpinWait();
                continue;
            }
            if (((Val) e).value == 0) {
                unset.incrementAndGet();
            }
            taken++;
        }
        producer.join();
        assertThat(unset).as("elements seen before their fields").hasValue(0);
    }

    @ParameterizedTest(name = "initial {0}, max {1}")
    @CsvSource({"2, 16384", "16, 1073741824"})
    void theSizeWhileOneElementComesAndGoesIsZeroOrOne(int initial, int max) throws Exception {
        MailboxQueue q = new MailboxQueue(initial, max);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong wrong = new AtomicLong();
        Thread reader = Thread.ofPlatform().start(() -> {
            while (!stop.get()) {
                int size = q.size();
                if (size != 0 && size != 1) {
                    wrong.incrementAndGet();
                }
            }
        });
        for (int i = 0; i < RACE_ELEMENTS; i++) {
            assertThat(q.offer(i)).isTrue();
            assertThat(q.poll()).isEqualTo(i);
        }
        stop.set(true);
        reader.join();
        assertThat(wrong).as("sizes other than 0 and 1").hasValue(0);
    }

    @ParameterizedTest(name = "initial {0}, max {1}")
    @CsvSource({"2, 16384", "16, 1073741824"})
    void aPollAfterTheQueueLookedNonEmptyFindsAnElement(int initial, int max) throws Exception {
        MailboxQueue q = new MailboxQueue(initial, max);
        Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < RACE_ELEMENTS; i++) {
                while (!q.offer(i)) {
                    Thread.onSpinWait();
                }
                if ((i & 15) == 0) {
                    Thread.yield();
                }
            }
        });
        long missing = 0;
        int taken = 0;
        while (taken < RACE_ELEMENTS) {
            if (!q.isEmpty()) {
                if (q.poll() == null) {
                    missing++;
                } else {
                    taken++;
                }
            } else {
                Thread.onSpinWait();
            }
        }
        producer.join();
        assertThat(missing).as("polls that found nothing after isEmpty() said false").isZero();
    }
}
