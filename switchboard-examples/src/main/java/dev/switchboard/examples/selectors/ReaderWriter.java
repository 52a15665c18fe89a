package dev.switchboard.examples.selectors;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.examples.Example;
import dev.switchboard.task.DataDrivenControl;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * [Selectors], Fig. 16 and §6: reader-writer concurrency inside one selector. Reads run in parallel as asyncs; a
 * data-driven control tells when the reads in flight have finished; a write disables every mailbox, waits for
 * that control, writes, and enables the mailboxes again. Three policies from the same {@code process}:
 * <ul>
 *   <li>AO, arrival order: reads and writes share one mailbox;</li>
 *   <li>RF, readers first: READ is mailbox 0, WRITE mailbox 1 (the first readers-writers problem);</li>
 *   <li>WF, writers first: WRITE is mailbox 0, READ mailbox 1 (the second readers-writers problem).</li>
 * </ul>
 * The mailbox numbers depend on the policy, so they are plain numbers ({@code Selector<Op, Numbered>}), and the
 * selector routes each operation itself: clients send to it as to any actor.
 */
public final class ReaderWriter implements Example {
    enum Policy { AO, RF, WF }

    sealed interface Op permits Read, Write {
    }

    record Read(int key) implements Op {
    }

    record Write(int key, int value) implements Op {
    }

    /** The dictionary selector. Its counters check that a write never overlaps a read or another write. */
    static final class Dictionary extends Selector<Op, Numbered> {
        private final Map<Integer, Integer> data = new HashMap<>();
        private final AtomicInteger activeReaders = new AtomicInteger();
        private DataDrivenControl<Boolean> readersDone = finished();
        private final int writeMailbox;
        private final int readMailbox;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger maxParallelReads = new AtomicInteger();
        final AtomicInteger violations = new AtomicInteger();
        private final AtomicInteger completed = new AtomicInteger();
        private final int expected;
        private volatile boolean writing;

        Dictionary(Policy policy, int expected) {
            super(policy == Policy.AO ? 1 : 2);
            this.expected = expected;
            this.readMailbox = policy == Policy.WF ? 1 : 0;
            this.writeMailbox = policy == Policy.RF ? 1 : 0;
        }

        private static DataDrivenControl<Boolean> finished() {
            DataDrivenControl<Boolean> ddc = new DataDrivenControl<>();
            ddc.addValue(true);
            return ddc;
        }

        @Override
        protected int route(Op op) {
            return op instanceof Read ? readMailbox : writeMailbox;
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Read r -> {
                    if (activeReaders.incrementAndGet() == 1) {
                        readersDone = new DataDrivenControl<>();     // a new group of readers in flight
                    }
                    DataDrivenControl<Boolean> group = readersDone;
                    async(() -> {                                   // process the read in parallel
                        read(r);
                        if (activeReaders.decrementAndGet() == 0) {
                            group.addValue(true);                   // the last reader in flight is done
                        }
                    });
                }
                case Write w -> {
                    if (readersDone.valueAvailable()) {
                        write(w);                                   // no reader in flight
                    } else {
                        disableAll();                               // hold everything back
                        readersDone.addResumable(ignored -> {       // once the readers are done
                            write(w);
                            enableAll();
                        });
                    }
                }
            }
        }

        private void read(Read r) {
            if (writing) {
                violations.incrementAndGet();
            }
            maxParallelReads.accumulateAndGet(activeReaders.get(), Math::max);
            double spin = 0;
            for (int i = 0; i < 20_000; i++) {
                spin += Math.sqrt(i);                              // a read that takes a little while
            }
            if (spin > 0) {
                data.get(r.key());
            }
            reads.incrementAndGet();
            countCompleted();
        }

        /** Exits after the last operation; called by the processing or by a reader task. */
        private void countCompleted() {
            if (completed.incrementAndGet() == expected) {
                exit();
            }
        }

        private void write(Write w) {
            writing = true;
            if (activeReaders.get() != 0) {
                violations.incrementAndGet();
            }
            data.put(w.key(), w.value());
            writes.incrementAndGet();
            writing = false;
            countCompleted();
        }
    }

    /** A client: sends its reads and writes, then tells the dictionary it is done. */
    static final class Client extends Actor<Integer> {
        static final int OPERATIONS = 200;
        private final ActorRef<Op> dictionary;

        Client(ActorRef<Op> dictionary) {
            this.dictionary = dictionary;
        }

        @Override
        protected void process(Integer seed) {
            java.util.Random random = new java.util.Random(seed);
            for (int i = 0; i < OPERATIONS; i++) {
                int key = random.nextInt(100);
                dictionary.send(random.nextInt(10) == 0 ? new Write(key, i) : new Read(key));
            }
            exit();
        }
    }

    static Dictionary run(Policy policy) {
        int clients = 4;
        Dictionary dictionary = new Dictionary(policy, clients * Client.OPERATIONS);
        finish(() -> {
            ActorRef<Op> ref = dictionary.start("dictionary-" + policy);
            for (int c = 0; c < clients; c++) {                   // the clients run in parallel
                new Client(ref).start().send(c);                  // c: the seed of its operations
            }
        });
        return dictionary;                                        // for its counters
    }

    @Override
    public void run(PrintStream out) {
        for (Policy p : Policy.values()) {
            Dictionary d = run(p);
            out.printf("%s: %d reads, %d writes, up to %d reads in parallel, overlapping writes: %d%n", p,
                    d.reads.get(), d.writes.get(), d.maxParallelReads.get(), d.violations.get());
        }
    }

    public static void main(String[] args) {
        new ReaderWriter().run(System.out);
    }
}
