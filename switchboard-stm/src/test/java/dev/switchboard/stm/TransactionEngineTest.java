package dev.switchboard.stm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's own paths: nesting and what a failed nested body undoes, the write set past its linear part, a
 * body that swallows a conflict, a node that extends {@code TRef}, and a sorted list under concurrent inserts,
 * removes and snapshot walks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionEngineTest {

    @Test
    void aNestedTransactionIsPartOfTheOuterOne() {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        Stm.atomic(() -> {
            x.set(1);
            Stm.atomic(() -> y.set(x.get() + 1));
            assertThat(y.get()).isEqualTo(2);
            assertThat(y.directGet()).isZero();          // nothing committed until the outer one commits
        });
        assertThat(x.directGet()).isEqualTo(1);
        assertThat(y.directGet()).isEqualTo(2);
    }

    @Test
    void aFailedNestedBodyUndoesItsWritesAndHandlersAndTheOuterGoesOn() {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        TRef<Integer> z = TRef.of(0);
        List<String> ran = new ArrayList<>();
        Stm.atomic(() -> {
            x.set(1);
            Stm.afterCommit(() -> ran.add("outer commit"));
            try {
                Stm.atomic(() -> {
                    x.set(10);                             // overwrites the outer write: undone
                    y.set(20);                             // a new write: undone
                    Stm.afterCommit(() -> ran.add("inner commit"));
                    Stm.afterRollback(() -> ran.add("inner rollback"));
                    Stm.atomic(() -> z.set(30));           // nested deeper, then the middle one fails
                    throw new IllegalStateException("inner fails");
                });
            } catch (IllegalStateException expected) {
                ran.add("caught");
            }
            assertThat(x.get()).isEqualTo(1);
            assertThat(y.get()).isZero();
            assertThat(z.get()).isZero();
            z.set(3);
        });
        assertThat(ran).containsExactly("inner rollback", "caught", "outer commit");
        assertThat(List.of(x.directGet(), y.directGet(), z.directGet())).containsExactly(1, 0, 3);
    }

    @Test
    void aDeeperFailureUndoesOnlyItsOwnLevel() {
        TRef<Integer> x = TRef.of(0);
        Stm.atomic(() -> {
            x.set(1);
            Stm.atomic(() -> {
                x.set(2);
                try {
                    Stm.atomic(() -> {
                        x.set(3);
                        throw new IllegalArgumentException("deepest fails");
                    });
                } catch (IllegalArgumentException expected) {
                    assertThat(x.get()).isEqualTo(2);
                }
                x.set(x.get() + 40);
            });
        });
        assertThat(x.directGet()).isEqualTo(42);
    }

    @Test
    void manyWritesGoThroughTheIndexedWriteSetAndAllCommit() {
        List<TRef<Integer>> refs = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            refs.add(TRef.of(i));
        }
        Stm.atomic(() -> {
            for (TRef<Integer> r : refs) {
                r.set(r.get() * 2);
            }
            for (TRef<Integer> r : refs) {                // own writes read back, and overwritten, past 8 entries
                r.transform(v -> v + 1);
            }
        });
        for (int i = 0; i < refs.size(); i++) {
            assertThat(refs.get(i).directGet()).isEqualTo(2 * i + 1);
        }
        assertThat(Stm.atomic(() -> refs.get(4_999).getAndSet(-1))).isEqualTo(9_999);
        assertThat(refs.get(4_999).directGet()).isEqualTo(-1);
    }

    @Test
    void aBodyThatSwallowsAConflictIsStillRolledBackAndRunAgain() throws Exception {
        TRef<Integer> x = TRef.of(0);
        TRef<Integer> y = TRef.of(0);
        TRef<Integer> out = TRef.of(0);
        AtomicInteger attempts = new AtomicInteger();
        Stm.atomic(() -> {
            int attempt = attempts.incrementAndGet();
            int seenX = x.get();
            if (attempt == 1) {                            // x and y move on after x was read
                try {
                    CompletableFuture.runAsync(() -> Stm.atomic(() -> {
                        x.set(5);
                        y.set(5);
                    })).get(20, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            int seenY;
            try {
                seenY = y.get();                           // the snapshot cannot move past x: a conflict
            } catch (Throwable swallowed) {
                seenY = -100;                              // a careless body goes on
            }
            out.set(seenX + seenY);
        });
        assertThat(attempts).hasValue(2);
        assertThat(out.directGet()).isEqualTo(10);
    }

    /** A list whose nodes are their own references: inserts and removes beside walks that must see a sorted list. */
    static final class Node extends TRef<Node> {
        final int value;

        Node(int value, Node next) {
            super(next);
            this.value = value;
        }
    }

    @Test
    void aSortedListOfNodesThatAreTheirOwnReferencesStaysConsistentUnderConcurrentUpdates() throws Exception {
        Node head = new Node(Integer.MIN_VALUE, null);
        int threads = 3;
        int ops = 20_000;
        AtomicLong unsorted = new AtomicLong();
        AtomicLong[] net = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    for (int i = 0; i < ops; i++) {
                        int v = r.nextInt(64);
                        boolean insert = r.nextBoolean();
                        boolean changed = Stm.atomic(() -> {
                            Node prev = head;
                            Node cur = prev.get();
                            while (cur != null && cur.value < v) {
                                prev = cur;
                                cur = cur.get();
                            }
                            boolean present = cur != null && cur.value == v;
                            if (insert && !present) {
                                prev.set(new Node(v, cur));
                                return true;
                            }
                            if (!insert && present) {
                                prev.set(cur.get());
                                return true;
                            }
                            return false;
                        });
                        if (changed) {
                            net[seed].addAndGet(insert ? 1 : -1);
                        }
                    }
                }));
            }
            Future<?> walker = pool.submit(() -> {
                while (done.stream().anyMatch(f -> !f.isDone())) {
                    boolean sorted = Stm.atomic(() -> {
                        int last = Integer.MIN_VALUE;
                        for (Node n = head.get(); n != null; n = n.get()) {
                            if (n.value <= last) {
                                return false;
                            }
                            last = n.value;
                        }
                        return true;
                    });
                    if (!sorted) {
                        unsorted.incrementAndGet();
                    }
                }
            });
            for (Future<?> f : done) {
                f.get(100, TimeUnit.SECONDS);
            }
            walker.get(100, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(unsorted).hasValue(0);
        int size = 0;
        int last = Integer.MIN_VALUE;
        for (Node n = head.directGet(); n != null; n = n.directGet()) {
            assertThat(n.value).isGreaterThan(last);
            last = n.value;
            size++;
        }
        assertThat((long) size).isEqualTo(net[0].get() + net[1].get() + net[2].get());
    }

    /**
     * An audit reads account 0, then, until it runs alone, waits for a transfer to commit before it reads the last
     * account: every transfer moves money between those two, so each such attempt rolls back (it finds account 0
     * changed when it moves its snapshot to read the last). After
     * {@value Transaction#ALONE_AFTER} rollbacks it runs alone, the transfers wait, and it ends with the right
     * total; the transfers then go on.
     */
    @Test
    void aTransactionThatKeepsRollingBackRunsAloneAndEnds() throws Exception {
        List<TRef<Long>> accounts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            accounts.add(TRef.of(100L));
        }
        TRef<Long> first = accounts.get(0);
        TRef<Long> last = accounts.get(63);
        AtomicLong transfers = new AtomicLong();
        AtomicInteger attempts = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean auditDone = new java.util.concurrent.atomic.AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                long amount = w == 0 ? 1 : -1;
                writers.add(pool.submit(() -> {
                    long after = -1;
                    while (after < 0 || transfers.get() < after + 100) {   // a hundred more once the audit ended
                        Stm.atomic(() -> {
                            first.set(first.get() - amount);
                            last.set(last.get() + amount);
                            Stm.afterCommit(transfers::incrementAndGet);
                        });
                        if (after < 0 && auditDone.get()) {
                            after = transfers.get();
                        }
                    }
                }));
            }
            long total = Stm.atomic(() -> {
                attempts.incrementAndGet();
                long sum = first.get();
                // a transfer counts itself after its commit, so up to one per writer may have committed before
                // the read above and count after it: the third count from here is of a commit after the read
                long seen = transfers.get();
                for (int i = 1; i < 63; i++) {
                    sum += accounts.get(i).get();
                }
                while (!Transaction.current().runsAlone() && transfers.get() < seen + 3) {
                    Thread.onSpinWait();
                }
                return sum + last.get();
            });
            auditDone.set(true);
            for (Future<?> f : writers) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(6_400L);
        } finally {
            pool.shutdownNow();
        }
        // each attempt before it ran alone rolled back; running alone, at most the two commits already under way
        assertThat(attempts.get()).isBetween(Transaction.ALONE_AFTER + 1, Transaction.ALONE_AFTER + 3);
        assertThat(accounts.stream().mapToLong(TRef::directGet).sum()).isEqualTo(6_400L);
    }

    @Test
    void referencesAreComparedByIdentityAndAHandlerMayRunATransaction() {
        TRef<String> a = TRef.of("same");
        TRef<String> b = TRef.of("same");
        assertThat(a).isNotEqualTo(b).isEqualTo(a);
        TRef<Integer> counter = TRef.of(0);
        Stm.atomic(() -> {
            a.set("changed");
            Stm.afterCommit(() -> Stm.atomic(() -> counter.set(counter.get() + 1)));
        });
        assertThat(counter.directGet()).isEqualTo(1);
        assertThat(Stm.inTransaction()).isFalse();
        assertThatThrownBy(() -> Stm.atomic(() -> {
            throw new UnsupportedOperationException("escapes");
        })).isInstanceOf(UnsupportedOperationException.class);
        assertThat(Stm.inTransaction()).isFalse();
    }
}
