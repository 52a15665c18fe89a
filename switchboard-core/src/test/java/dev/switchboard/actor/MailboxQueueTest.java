package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The queue of a selector's mailbox: FIFO through resizes and wrap-arounds, its bound, and many producers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MailboxQueueTest {

    @ParameterizedTest(name = "first buffer {0}")
    @ValueSource(ints = {1, 2, 16, 1024})
    void keepsFifoOrderWhileItGrows(int initial) {
        MailboxQueue q = new MailboxQueue(initial, 1 << 20);
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.poll()).isNull();
        for (int i = 0; i < 10_000; i++) {
            assertThat(q.offer(i)).isTrue();
            assertThat(q.size()).isEqualTo(i + 1);
        }
        assertThat(q.isEmpty()).isFalse();
        for (int i = 0; i < 10_000; i++) {
            assertThat(q.poll()).isEqualTo(i);
            assertThat(q.size()).isEqualTo(10_000 - i - 1);
        }
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void keepsFifoOrderWhenOfferAndPollInterleaveAcrossResizesAndWrapArounds() {
        MailboxQueue q = new MailboxQueue(2, 1 << 12);
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 2_000; round++) {
            int in = 1 + round % 7;
            int out = 1 + (round * 5) % 6;
            for (int k = 0; k < in; k++) {
                assertThat(q.offer(next++)).isTrue();
            }
            for (int k = 0; k < out; k++) {
                Object e = q.poll();
                if (e == null) {
                    assertThat(expected).isEqualTo(next);
                    break;
                }
                assertThat(e).isEqualTo(expected++);
            }
            assertThat(q.size()).isEqualTo(next - expected);
        }
        Object e;
        while ((e = q.poll()) != null) {
            assertThat(e).isEqualTo(expected++);
        }
        assertThat(expected).isEqualTo(next);
    }

    @Test
    void refusesAnElementBeyondItsMaximumAndTakesOneAgainOnceThereIsRoom() {
        MailboxQueue q = new MailboxQueue(2, 8);
        for (int i = 0; i < 8; i++) {
            assertThat(q.offer(i)).as("offer %d", i).isTrue();
        }
        assertThat(q.offer(8)).isFalse();
        assertThat(q.size()).isEqualTo(8);
        for (int round = 0; round < 100; round++) {       // at the maximum the buffer is reused circularly
            assertThat(q.poll()).isEqualTo(round);
            assertThat(q.offer(round + 8)).isTrue();
            assertThat(q.offer(-1)).isFalse();
        }
        for (int i = 100; i < 108; i++) {
            assertThat(q.poll()).isEqualTo(i);
        }
        assertThat(q.poll()).isNull();
    }

    /**
     * A producer that has claimed the consumer's next index to grow the queue has not added anything yet: poll
     * says empty at once rather than wait for it (it may be allocating a large buffer, or fail to and give the
     * index back, after which nothing would ever arrive at that slot).
     */
    @Test
    void aResizeClaimedAtTheConsumersIndexIsNotAnElementToWaitFor() {
        MailboxQueue q = new MailboxQueue(2, 64);
        assertThat(q.offer("a")).isTrue();
        assertThat(q.poll()).isEqualTo("a");
        long consumer = q.consumerIndex;
        q.producerIndex = consumer + 1;                   // as a resizing producer leaves it
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        q.producerIndex = consumer;                       // the resize gave up (OutOfMemoryError)
        assertThat(q.offer("b")).isTrue();
        assertThat(q.poll()).isEqualTo("b");
    }

    @Test
    void rejectsANullElement() {
        assertThatThrownBy(() -> new MailboxQueue(2, 8).offer(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void rejectsCapacitiesItCannotHave() {
        assertThatThrownBy(() -> new MailboxQueue(0, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("need 1 <= initial <= maximum <= 2^30");
        assertThatThrownBy(() -> new MailboxQueue(16, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MailboxQueue(16, (1 << 30) + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Four producers race into a queue whose first buffer holds two elements while one consumer drains it: every
     * element arrives exactly once, and each producer's elements in the order it offered them.
     */
    @RepeatedTest(10)
    void manyProducersLoseNothingAndKeepEachProducersOrder() throws Exception {
        int producers = 4;
        int perProducer = 50_000;
        MailboxQueue q = new MailboxQueue(2, 1 << 20);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perProducer; i++) {
                    while (!q.offer(new long[] {id, i})) {
                        Thread.onSpinWait();
                    }
                }
            }, "producer-" + p);
            t.start();
            threads.add(t);
        }
        int[] next = new int[producers];
        AtomicReference<String> error = new AtomicReference<>();
        start.countDown();
        int received = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received < producers * perProducer && System.nanoTime() < deadline) {
            Object e = q.poll();
            if (e == null) {
                Thread.onSpinWait();
                continue;
            }
            long[] m = (long[]) e;
            int id = (int) m[0];
            if (m[1] != next[id] && error.get() == null) {
                error.set("producer " + id + ": expected " + next[id] + ", got " + m[1]);
            }
            next[id] = (int) m[1] + 1;
            received++;
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(error.get()).isNull();
        assertThat(received).isEqualTo(producers * perProducer);
        assertThat(next).containsOnly(perProducer);
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
    }
}
