package dev.switchboard.bench.concsll;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina concurrent sorted linked list ([Selectors] §6.1, Fig. 18): {@code workers} actors each send
 * {@code messagesPerWorker} requests to one sorted linked list, waiting for each reply before the next: an insert
 * ({@code writePercentage} percent), a size query ({@code sizePercentage} percent) or a membership test. Every
 * operation walks the list, O(n). On Switchboard the list is a reader-writer selector (Fig. 16) that serves size
 * and membership queries in parallel, with policy AO, RF or WF; on Pekko it is a serial actor.
 *
 * <p>So that the checksum does not depend on how requests interleave: inserted values are even; a membership
 * test asks either for the value the same worker inserted last (present, since the worker had its insert
 * acknowledged before asking) or for an odd value (never present). The checksum is the number of replies, plus
 * the number of membership tests answered "present", plus the final length of the list (the number of inserts).
 * Size replies vary with the interleaving and only count as replies.
 *
 * <p>Scaling: Savina's defaults are 20 workers, 8,000 requests each, 10 % inserts, 1 % size queries; with a list
 * growing to 16,000 elements a Pekko run takes many seconds on two cores. Here: 20 workers, 2,500 requests each,
 * 10 % inserts, 1 % size queries, so the list grows to about 5,000 elements and a Pekko run takes about
 * 1.1 s.
 */
public final class SortedLinkedList implements Benchmark {
    private final Policy policy;
    private final Params p;
    private final long expected;

    public SortedLinkedList(Policy policy, int workers, int messagesPerWorker, int writePercentage,
            int sizePercentage) {
        if (workers < 1 || messagesPerWorker < 0 || writePercentage < 0 || sizePercentage < 0
                || writePercentage + sizePercentage > 100) {
            throw new IllegalArgumentException("bad SortedLinkedList parameters");
        }
        this.policy = policy;
        this.p = new Params(workers, messagesPerWorker, writePercentage, sizePercentage);
        this.expected = simulate(p);
    }

    /** 20 workers, 2,500 requests each, 10 % inserts, 1 % size queries (see the class comment). */
    public SortedLinkedList(Policy policy) {
        this(policy, 20, 2_500, 10, 1);
    }

    @Override
    public String name() {
        return "SortedLinkedList" + policy;
    }

    @Override
    public String description() {
        return "request-reply to a shared sorted linked list, O(n) operations, reads in parallel on Switchboard ("
                + policy + "), a serial actor on Pekko (Savina concsll; 2,500 requests per worker)";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("policy", policy.name());
        m.put("workers", p.workers());
        m.put("messages_per_worker", p.messagesPerWorker());
        m.put("write_percentage", p.writePercentage());
        m.put("size_percentage", p.sizePercentage());
        return m;
    }

    /** Replies + membership tests answered "present" + final list length. */
    @Override
    public long expected() {
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardSortedLinkedList.run(runtime, policy, p);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoSortedLinkedList.run(system, p);
    }

    record Params(int workers, int messagesPerWorker, int writePercentage, int sizePercentage) {
    }

    /** What a request asks. */
    enum Kind {
        INSERT, SIZE, CONTAINS
    }

    /** The requests of one worker, drawn from its own seeded generator, the same on both sides. */
    static final class Requests {
        private final Random random;
        private final Params p;
        private int left;
        private boolean inserted;
        private int lastInserted;
        /** The request made by the last {@link #next}. */
        Kind kind;
        /** Its value (INSERT and CONTAINS). */
        int value;

        Requests(int worker, Params p) {
            this.random = new Random(worker + p.messagesPerWorker() + p.writePercentage() + p.sizePercentage());
            this.p = p;
            this.left = p.messagesPerWorker();
        }

        /** Draws the next request; false when the worker has made all of them. */
        boolean next() {
            if (left == 0) {
                return false;
            }
            left--;
            int dice = random.nextInt(100);
            int r = random.nextInt();
            if (dice < p.sizePercentage()) {
                kind = Kind.SIZE;
            } else if (dice < p.sizePercentage() + p.writePercentage()) {
                kind = Kind.INSERT;
                value = r & ~1;
                inserted = true;
                lastInserted = value;
            } else {
                kind = Kind.CONTAINS;
                value = inserted && (r & 1) == 0 ? lastInserted : r | 1;
            }
            return true;
        }
    }

    private static long simulate(Params p) {
        long sum = 0;
        for (int w = 0; w < p.workers(); w++) {
            Requests r = new Requests(w, p);
            while (r.next()) {
                sum += 1;                                            // a reply
                if (r.kind == Kind.INSERT) {
                    sum += 1;                                        // one more element at the end
                } else if (r.kind == Kind.CONTAINS && (r.value & 1) == 0) {
                    sum += 1;                                        // present
                }
            }
        }
        return sum;
    }

    /**
     * The sorted singly linked list both sides keep (Savina's {@code SortedLinkedList}, on ints): inserts keep
     * duplicates; every operation walks from the head.
     */
    static final class IntList {
        private static final class Node {
            final int item;
            Node next;

            Node(int item, Node next) {
                this.item = item;
                this.next = next;
            }
        }

        private Node head;

        void add(int item) {
            if (head == null || item < head.item) {
                head = new Node(item, head);
                return;
            }
            Node before = head;
            Node after = head.next;
            while (after != null && item >= after.item) {
                before = after;
                after = after.next;
            }
            before.next = new Node(item, after);
        }

        boolean contains(int item) {
            for (Node n = head; n != null; n = n.next) {
                if (n.item == item) {
                    return true;
                }
            }
            return false;
        }

        int size() {
            int size = 0;
            for (Node n = head; n != null; n = n.next) {
                size++;
            }
            return size;
        }
    }
}
