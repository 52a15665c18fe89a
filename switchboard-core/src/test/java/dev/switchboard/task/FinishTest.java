package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.testing.Runtimes;
import java.io.IOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FinishTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    @Test
    void finishWaitsForEveryTransitivelySpawnedTask() {
        LongAdder done = new LongAdder();
        rt.finish(() -> {
            for (int i = 0; i < 50; i++) {
                rt.async(() -> {
                    for (int j = 0; j < 20; j++) {
                        rt.async(() -> {
                            rt.async(done::increment);
                            done.increment();
                        });
                    }
                });
            }
        });
        assertThat(done.sum()).isEqualTo(50 * 20 * 2);
    }

    @Test
    void wideFlatFanOutIsCountedExactly() {
        AtomicInteger done = new AtomicInteger();
        for (int round = 0; round < 20; round++) {
            done.set(0);
            rt.finish(() -> {
                for (int i = 0; i < 10_000; i++) {
                    rt.async(done::incrementAndGet);
                }
            });
            assertThat(done.get()).isEqualTo(10_000);
        }
    }

    @Test
    void recursiveDivideAndConquer() {
        assertThat(fib(rt, 22)).isEqualTo(17711);
    }

    static int fib(TaskRuntime rt, int n) {
        if (n < 2) {
            return n;
        }
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        rt.finish(() -> {
            rt.async(() -> a.set(fib(rt, n - 1)));
            b.set(fib(rt, n - 2));
        });
        return a.get() + b.get();
    }

    @Test
    void staticApiUsesTheRuntimeTheCodeRunsIn() {
        AtomicInteger ran = new AtomicInteger();
        ConcurrentLinkedQueue<String> threads = new ConcurrentLinkedQueue<>();
        rt.finish(() -> {
            assertThat(TaskRuntime.current()).isSameAs(rt);
            dev.switchboard.Switchboard.async(() -> {
                threads.add(Thread.currentThread().getName());
                ran.incrementAndGet();
            });
        });
        assertThat(ran.get()).isEqualTo(1);
        assertThat(threads).allMatch(n -> n.startsWith(rt.name()));
    }

    @Test
    void singleFailureIsRethrownAsItself() {
        IllegalStateException boom = new IllegalStateException("boom");
        Throwable thrown = catchThrowable(() -> rt.finish(() -> rt.async(() -> {
            throw boom;
        })));
        assertThat(thrown).isSameAs(boom);
    }

    @Test
    void checkedFailureIsRethrownAsItself() {
        IOException io = new IOException("disk");
        Throwable thrown = catchThrowable(() -> rt.finish(() -> rt.async(() -> sneaky(io))));
        assertThat(thrown).isSameAs(io);
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> void sneaky(Throwable t) throws E {
        throw (E) t;
    }

    @Test
    void severalFailuresAreAggregatedAndAllListed() {
        AtomicInteger survivors = new AtomicInteger();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            for (int i = 0; i < 5; i++) {
                int id = i;
                rt.async(() -> {
                    throw new IllegalArgumentException("task " + id);
                });
            }
            for (int i = 0; i < 100; i++) {
                rt.async(survivors::incrementAndGet);
            }
        }));
        assertThat(thrown).isInstanceOf(MultiException.class);
        MultiException m = (MultiException) thrown;
        assertThat(m.failures()).hasSize(5).allMatch(f -> f instanceof IllegalArgumentException);
        assertThat(m.getSuppressed()).hasSize(5);
        for (int i = 0; i < 5; i++) {
            assertThat(m.getMessage()).contains("task " + i);
        }
        assertThat(survivors.get()).as("other tasks still ran to completion").isEqualTo(100);
    }

    @Test
    void bodyFailureStillWaitsForSpawnedTasksAndIsAggregated() {
        AtomicBoolean childRan = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            rt.async(() -> {
                await(release);
                childRan.set(true);
                throw new IllegalStateException("child");
            });
            release.countDown();
            throw new UnsupportedOperationException("body");
        }));
        assertThat(childRan).isTrue();
        assertThat(thrown).isInstanceOf(MultiException.class);
        assertThat(((MultiException) thrown).failures()).extracting(Throwable::getMessage)
                .containsExactlyInAnyOrder("body", "child");
    }

    @Test
    void innerFinishKeepsItsOwnFailures() {
        AtomicBoolean caughtInside = new AtomicBoolean();
        rt.finish(() -> rt.async(() -> {
            try {
                rt.finish(() -> rt.async(() -> {
                    throw new IllegalStateException("inner");
                }));
            } catch (IllegalStateException e) {
                caughtInside.set(true);
            }
        }));
        assertThat(caughtInside).isTrue();
    }

    @Test
    void futureDeliversValueAndFailure() {
        AtomicInteger result = new AtomicInteger();
        rt.finish(() -> {
            TaskFuture<Integer> f = rt.future(() -> 6 * 7);
            rt.asyncAwait(f, () -> result.set(f.get()));
        });
        assertThat(result.get()).isEqualTo(42);

        AtomicBoolean sawFailure = new AtomicBoolean();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            TaskFuture<Integer> f = rt.future(() -> {
                throw new ArithmeticException("div");
            });
            rt.asyncAwait(f, () -> {
                try {
                    f.get();
                } catch (java.util.concurrent.CompletionException e) {
                    sawFailure.set(e.getCause() instanceof ArithmeticException);
                }
            });
        }));
        assertThat(sawFailure).isTrue();
        assertThat(thrown).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void forallVisitsEveryIndexExactlyOnce() {
        for (int n : new int[] {0, 1, 7, 1000, 100_003}) {
            AtomicIntegerArray seen = new AtomicIntegerArray(Math.max(n, 1));
            rt.forall(0, n, seen::incrementAndGet);
            for (int i = 0; i < n; i++) {
                assertThat(seen.get(i)).as("index %d of %d", i, n).isEqualTo(1);
            }
        }
    }

    @Test
    void forasyncWithExplicitChunkAndOffsetRange() {
        AtomicIntegerArray seen = new AtomicIntegerArray(300);
        LongAdder tasks = new LongAdder();
        rt.finish(() -> rt.forasync(100, 300, 7, i -> {
            seen.incrementAndGet(i);
            if (i % 7 == 2) {
                tasks.increment();
            }
        }));
        for (int i = 0; i < 300; i++) {
            assertThat(seen.get(i)).isEqualTo(i >= 100 ? 1 : 0);
        }
        assertThatThrownBy(() -> rt.forasync(0, 10, 0, i -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk");
    }

    @Test
    void forallFailureInOneIterationReachesTheFinish() {
        Throwable thrown = catchThrowable(() -> rt.forall(0, 1000, 10, i -> {
            if (i == 537) {
                throw new IllegalStateException("iteration 537");
            }
        }));
        assertThat(thrown).hasMessage("iteration 537");
    }

    @RepeatedTest(20)
    void finishFromManyExternalThreadsAtOnce() throws Exception {
        int threads = 4;
        AtomicInteger total = new AtomicInteger();
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> rt.finish(() -> {
                for (int i = 0; i < 200; i++) {
                    rt.async(total::incrementAndGet);
                }
            }));
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(total.get()).isEqualTo(threads * 200);
    }

    @Test
    void invalidArgumentsAreRejectedClearly() {
        assertThatThrownBy(() -> rt.finish(java.time.Duration.ZERO, () -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> TaskRuntime.create(0)).hasMessageContaining("between 1 and 32767");
        assertThatThrownBy(() -> TaskRuntime.builder().workers(100_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 32767").hasMessageContaining("100000");
        assertThatThrownBy(() -> TaskRuntime.builder().throughput(0)).hasMessageContaining("throughput");
        assertThatThrownBy(() -> TaskRuntime.defaultRuntime().close())
                .isInstanceOf(IllegalStateException.class);
    }

    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("latch timed out");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aFinishReturnsWhatItsBodyReturnedOnceItsTasksHaveEnded() {
        LongAdder spawned = new LongAdder();
        long total = rt.finish(() -> {
            for (int i = 0; i < 100; i++) {
                rt.async(spawned::increment);
            }
            TaskFuture<Long> half = rt.future(() -> 21L);
            return half.get() * 2;
        });
        assertThat(total).isEqualTo(42L);
        assertThat(spawned.sum()).isEqualTo(100);      // returned only after every task it started had ended
        String nothing = rt.finish(() -> null);
        assertThat(nothing).isNull();
    }

    @Test
    void aCheckedExceptionFromTheBodyIsRethrownAsItself() {
        IOException io = new IOException("disk full");
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            if (io != null) {
                throw io;
            }
            return "unreached";
        }));
        assertThat(thrown).isSameAs(io);
        Throwable both = catchThrowable(() -> rt.<String>finish(() -> {
            rt.async(() -> {
                throw new IllegalStateException("a task failed too");
            });
            throw io;
        }));
        assertThat(both).isInstanceOf(MultiException.class);
        assertThat(((MultiException) both).failures()).hasSize(2).contains(io);
    }
}

