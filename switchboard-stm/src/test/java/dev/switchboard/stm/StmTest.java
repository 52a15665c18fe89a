package dev.switchboard.stm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The transactional engine behind the Java API: atomicity, isolation, the three reads, bounds and errors. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StmTest {

    @Test
    void concurrentConflictingTransfersKeepTheTotalExactly() throws Exception {
        int accounts = 16;
        int threads = 4;
        int transfers = 20_000;
        List<TRef<Long>> balance = new ArrayList<>();
        for (int i = 0; i < accounts; i++) {
            balance.add(TRef.of(1_000L));
        }
        AtomicLong invariantBroken = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    for (int i = 0; i < transfers; i++) {
                        TRef<Long> from = balance.get(r.nextInt(accounts));
                        TRef<Long> to = balance.get(r.nextInt(accounts));
                        long amount = 1 + r.nextInt(50);
                        Stm.atomic(() -> {
                            if (from != to && from.get() >= amount) {
                                from.set(from.get() - amount);
                                to.set(to.get() + amount);
                            }
                        });
                    }
                }));
            }
            AtomicBoolean writersDone = new AtomicBoolean();
            // an auditor: inside a transaction the total is always exactly the initial one
            Future<?> auditor = pool.submit(() -> {
                while (!writersDone.get()) {
                    long total = Stm.atomic(() -> balance.stream().mapToLong(TRef::get).sum());
                    if (total != 16_000L) {
                        invariantBroken.incrementAndGet();
                    }
                }
            });
            for (Future<?> f : done) {
                f.get(100, TimeUnit.SECONDS);
            }
            writersDone.set(true);
            auditor.get(100, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(invariantBroken).hasValue(0);
        assertThat(balance.stream().mapToLong(TRef::directGet).sum()).isEqualTo(16_000L);
        assertThat(balance).allSatisfy(b -> assertThat(b.directGet()).isNotNegative());
    }

    @Test
    void anExceptionRollsTheWholeTransactionBackAndIsRethrown() {
        TRef<String> a = TRef.of("a0");
        TRef<String> b = TRef.of("b0");
        Throwable thrown = catchThrowable(() -> Stm.atomic(() -> {
            a.set("a1");
            b.set("b1");
            throw new IllegalStateException("abort");
        }));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("abort");
        assertThat(a.directGet()).isEqualTo("a0");
        assertThat(b.directGet()).isEqualTo("b0");
        assertThat(Stm.atomic(() -> a.get() + b.get())).isEqualTo("a0b0");
    }

    @Test
    void aDirectReadNeverSeesAValueOfATransactionThatRolledBack() throws Exception {
        TRef<Integer> x = TRef.of(0);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger seenRolledBack = new AtomicInteger();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            while (!stop.get()) {
                int v = x.directGet();
                if (v < 0) {
                    seenRolledBack.incrementAndGet();
                }
            }
        });
        for (int i = 1; i <= 20_000; i++) {
            int n = i;
            catchThrowable(() -> Stm.atomic(() -> {
                x.set(-n);                     // written, then rolled back
                throw new IllegalArgumentException("roll back");
            }));
            Stm.atomic(() -> x.set(n));
        }
        stop.set(true);
        reader.get(60, TimeUnit.SECONDS);
        assertThat(seenRolledBack).hasValue(0);
        assertThat(x.directGet()).isEqualTo(20_000);
    }

    @Test
    void insideATransactionItsOwnWritesAreReadButTheDirectReadSeesTheCommittedValue() {
        TRef<Integer> x = TRef.of(1);
        int[] seen = Stm.atomic(() -> {
            x.set(2);
            return new int[] {x.get(), x.relaxedGet(), x.directGet()};
        });
        assertThat(seen).containsExactly(2, 2, 1);
        assertThat(x.directGet()).isEqualTo(2);
    }

    /**
     * A transaction reads x; another commits writes to x and z; the first then reads z (newer than its snapshot, so
     * it moves its snapshot forward) and writes y. With a recorded read of x the move finds x changed and the
     * transaction runs again; with an unrecorded read it goes on and commits at once.
     */
    @Test
    void aRecordedReadRollsBackWhenTheSnapshotMovesPastAWriteAndAnUnrecordedOneDoesNot() throws Exception {
        assertThat(attemptsOfStaleReader(false)).isEqualTo(2);
        assertThat(attemptsOfStaleReader(true)).isEqualTo(1);
    }

    private static int attemptsOfStaleReader(boolean relaxed) throws Exception {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        TRef<Integer> z = TRef.of(0);
        AtomicInteger attempts = new AtomicInteger();
        Stm.atomic(() -> {
            int attempt = attempts.incrementAndGet();
            int v = relaxed ? x.relaxedGet() : x.get();
            if (attempt == 1) {                // another thread commits writes to x and z after our read
                try {
                    CompletableFuture.runAsync(() -> Stm.atomic(() -> {
                        x.set(42);
                        z.set(1);
                    })).get(20, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            y.set(v + z.get());
        });
        return attempts.get();
    }

    @Test
    void aTransactionThatConflictsEveryTimeIsGivenUpWithAClearError() {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        AtomicInteger attempts = new AtomicInteger();
        Throwable thrown = catchThrowable(() -> Stm.atomic(3, () -> {
            attempts.incrementAndGet();
            int v = x.get();
            try {                              // every attempt: another commit makes the read stale
                CompletableFuture.runAsync(() -> Stm.atomic(() -> x.set(x.get() + 1))).get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            y.set(v);
            return v;
        }));
        assertThat(thrown).isInstanceOf(TransactionConflictException.class)
                .hasMessageContaining("given up after 3 attempts");
        assertThat(((TransactionConflictException) thrown).attempts()).isEqualTo(3);
        assertThat(attempts).hasValue(3);
        assertThat(y.directGet()).isZero();
        assertThatThrownBy(() -> Stm.atomic(0, () -> 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stm.atomic(0, () -> y.set(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 attempt");
        Stm.atomic(1, () -> y.set(5));                   // the bounded form of a body that returns nothing
        assertThat(y.directGet()).isEqualTo(5);
    }

    @Test
    void afterCommitRunsOnceAndAfterRollbackOncePerRollback() throws Exception {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        AtomicInteger commits = new AtomicInteger();
        AtomicInteger rollbacks = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();
        Stm.atomic(() -> {
            Stm.afterCommit(commits::incrementAndGet);
            Stm.afterRollback(rollbacks::incrementAndGet);
            int v = x.get();
            if (attempts.incrementAndGet() == 1) {
                try {
                    CompletableFuture.runAsync(() -> Stm.atomic(() -> x.set(7))).get(20, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            y.set(v);
        });
        assertThat(attempts).hasValue(2);
        assertThat(commits).hasValue(1);
        assertThat(rollbacks).hasValue(1);
        assertThat(y.directGet()).isEqualTo(7);
    }

    @Test
    void aRollbackHandlerThatThrowsJoinsTheBodysExceptionAndEveryHandlerRuns() {
        TRef<Integer> x = TRef.of(0);
        List<String> ran = new ArrayList<>();
        IllegalArgumentException problem = new IllegalArgumentException("the real problem");
        Throwable thrown = catchThrowable(() -> Stm.atomic(() -> {
            x.set(1);
            Stm.afterRollback(() -> {
                ran.add("first");
                throw new IllegalStateException("first handler");
            });
            Stm.afterRollback(() -> ran.add("second"));
            throw problem;
        }));
        assertThat(thrown).isSameAs(problem);
        assertThat(thrown.getSuppressed()).singleElement().extracting(Throwable::getMessage).isEqualTo("first handler");
        assertThat(ran).containsExactly("first", "second");
        assertThat(x.directGet()).isZero();
    }

    @Test
    void aRollbackHandlerThatThrowsAfterAConflictEndsTheTransactionWithItsException() {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        AtomicInteger attempts = new AtomicInteger();
        Throwable thrown = catchThrowable(() -> Stm.atomic(() -> {
            attempts.incrementAndGet();
            Stm.afterRollback(() -> {
                throw new IllegalStateException("rollback handler");
            });
            int v = x.get();
            try {                                         // another commit makes the read stale: a conflict
                CompletableFuture.runAsync(() -> Stm.atomic(() -> x.set(x.get() + 1))).get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            y.set(v);
        }));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("rollback handler");
        assertThat(attempts).as("not run again with a handler that fails").hasValue(1);
        assertThat(y.directGet()).isZero();
    }

    @Test
    void aCommitHandlerThatThrowsLeavesTheCommitAndEveryHandlerRunsFirst() {
        TRef<Integer> x = TRef.of(0);
        List<String> ran = new ArrayList<>();
        Throwable thrown = catchThrowable(() -> Stm.atomic(() -> {
            x.set(2);
            Stm.afterCommit(() -> {
                ran.add("first");
                throw new IllegalStateException("first handler");
            });
            Stm.afterCommit(() -> {
                ran.add("second");
                throw new IllegalStateException("second handler");
            });
            Stm.afterCommit(() -> ran.add("third"));
        }));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("first handler");
        assertThat(thrown.getSuppressed()).singleElement().extracting(Throwable::getMessage)
                .isEqualTo("second handler");
        assertThat(ran).containsExactly("first", "second", "third");
        assertThat(x.directGet()).as("the commit stands").isEqualTo(2);
        assertThat(Stm.inTransaction()).isFalse();
    }

    @Test
    void outsideATransactionOnlyTheDirectReadIsAllowed() {
        TRef<String> x = TRef.of("v");
        assertThat(Stm.inTransaction()).isFalse();
        assertThatThrownBy(x::get).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TRef.get() was called outside a transaction")
                .hasMessageContaining("directGet()");
        assertThatThrownBy(() -> x.set("w")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TRef.set() was called outside a transaction");
        assertThatThrownBy(x::relaxedGet).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Stm.afterCommit(() -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside a transaction");
        assertThat(x.directGet()).isEqualTo("v");
        assertThat(x).hasToString("TRef[v]");
        assertThat(Stm.atomic(Stm::inTransaction)).isTrue();
    }

    /** The API is Java: no Scala type in a public or protected signature of the package. */
    @Test
    void noScalaTypeAppearsInThePublicApi() {
        for (Class<?> c : List.of(TRef.class, Stm.class, TransactionConflictException.class)) {
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers())) {
                    assertThat(m.toGenericString()).as(c.getSimpleName() + "." + m.getName()).doesNotContain("scala.");
                }
            }
            for (var f : c.getDeclaredFields()) {
                if (Modifier.isPublic(f.getModifiers()) || Modifier.isProtected(f.getModifiers())) {
                    assertThat(f.toGenericString()).doesNotContain("scala.");
                }
            }
            for (var k : c.getDeclaredConstructors()) {
                if (Modifier.isPublic(k.getModifiers())) {
                    assertThat(k.toGenericString()).doesNotContain("scala.");
                }
            }
        }
    }
}
