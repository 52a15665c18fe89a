package dev.switchboard.examples.stm;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.examples.Example;
import dev.switchboard.stm.ReadOnly;
import dev.switchboard.stm.TRef;
import dev.switchboard.stm.TransactionalActor;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * [TxActors] §5.1: a sorted linked list owned by a transactional actor. Each node's {@code next} is a {@link TRef},
 * so inserts and removes that touch different parts of the list commit concurrently, and two that touch the same
 * nodes conflict and one runs again. Lookups and the sum are read-only messages that walk the list with direct
 * reads: they never make a writer roll back, and a walk that runs while writers commit sees some of their changes
 * (a relaxed sum); once the writers are done, it is exact.
 */
public final class SortedList implements Example {
    sealed interface ListMsg permits Insert, Remove, Sum, Close {
    }

    record Insert(int value) implements ListMsg {
    }

    record Remove(int value) implements ListMsg {
    }

    record Sum(ReplyTo<Long> replyTo) implements ListMsg, ReadOnly {
    }

    record Close() implements ListMsg {
    }

    /** A node: its value, and the transactional reference to the next node (null at the end). */
    record Node(int value, TRef<Node> next) {
    }

    static final class ListActor extends TransactionalActor<ListMsg> {
        /** A sentinel before the smallest value. */
        final Node head = new Node(Integer.MIN_VALUE, TRef.of(null));

        ListActor() {
            super(Settings.staticSplit(4, 0.75));
        }

        @Override
        protected void process(ListMsg msg) {
            switch (msg) {
                case Insert i -> {
                    Node prev = head;
                    Node cur = prev.next().get();
                    while (cur != null && cur.value() < i.value()) {
                        prev = cur;
                        cur = cur.next().get();
                    }
                    if (cur == null || cur.value() != i.value()) {
                        prev.next().set(new Node(i.value(), TRef.of(cur)));
                    }
                }
                case Remove r -> {
                    Node prev = head;
                    Node cur = prev.next().get();
                    while (cur != null && cur.value() < r.value()) {
                        prev = cur;
                        cur = cur.next().get();
                    }
                    if (cur != null && cur.value() == r.value()) {
                        prev.next().set(cur.next().get());
                    }
                }
                case Sum s -> {
                    long sum = 0;
                    for (Node cur = head.next().directGet(); cur != null; cur = cur.next().directGet()) {
                        sum += cur.value();
                    }
                    s.replyTo().reply(sum);
                }
                case Close c -> exit();
            }
        }

        /** The values in order, and whether they are strictly increasing (after the actor has ended). */
        String check() {
            int count = 0;
            int last = Integer.MIN_VALUE;
            boolean sorted = true;
            for (Node cur = head.next().directGet(); cur != null; cur = cur.next().directGet()) {
                sorted &= cur.value() > last;
                last = cur.value();
                count++;
            }
            return count + " values, " + (sorted ? "in strictly increasing order" : "OUT OF ORDER");
        }
    }

    @Override
    public void run(PrintStream out) {
        int n = 2_000;
        ListActor list = new ListActor();
        CompletableFuture<Long>[] sums = newSums();
        finish(() -> {
            ActorRef<ListMsg> ref = list.start("list");
            for (int i = 1; i <= n / 2; i++) {                  // inserts from both ends meet in the middle
                ref.send(new Insert(i));
                ref.send(new Insert(n + 1 - i));
            }
            sums[0] = ref.ask(Sum::new, Duration.ofMinutes(1));    // relaxed: while the inserts commit
            // Transactional messages run at once and commit in some order, not necessarily the order they were
            // sent in: a Remove sent now could commit before the Insert of its value. Wait for the inserts first.
            while (list.stats().commits() < n) {
                Thread.onSpinWait();
            }
            for (int v = 3; v <= n; v += 3) {
                ref.send(new Remove(v));
            }
            CompletableFuture.allOf(sums[0]).join();
            ref.send(new Close());
        });
        // after the actor ended: every insert and remove has committed
        long expected = 0;
        int kept = 0;
        for (int v = 1; v <= n; v++) {
            if (v % 3 != 0) {
                expected += v;
                kept++;
            }
        }
        long finalSum = 0;
        for (Node cur = list.head.next().directGet(); cur != null; cur = cur.next().directGet()) {
            finalSum += cur.value();
        }
        out.printf("the list holds %s%n", list.check());
        out.printf("its sum is %d, the sum of the %d values from 1 to %d that are not multiples of 3: %b%n", finalSum,
                kept, n, finalSum == expected);
        out.printf("a relaxed sum taken while inserts committed was between 0 and the full sum: %b%n",
                sums[0].join() >= 0 && sums[0].join() <= (long) n * (n + 1) / 2);
        TransactionalActor.Stats s = list.stats();
        out.printf("%d inserts and removes and a close committed once each; %d read-only message ran%n",
                s.commits(), s.readOnly());
    }

    @SuppressWarnings("unchecked")
    private static CompletableFuture<Long>[] newSums() {
        return new CompletableFuture[1];
    }

    public static void main(String[] args) {
        new SortedList().run(System.out);
    }
}
