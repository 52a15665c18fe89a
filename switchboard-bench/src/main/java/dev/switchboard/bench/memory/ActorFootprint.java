package dev.switchboard.bench.memory;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.Selector;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.task.TaskRuntime;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * The heap an idle actor keeps: creates N started actors (or selectors) that have received no message, inside a
 * finish, and measures the heap retained after several full collections against the heap before they were
 * created; then tells them to exit. The figure is everything the runtime keeps per actor (the actor object, its
 * reference, its mailbox, its activation, its share of the finish's bookkeeping) plus the user's subclass, which
 * here has no fields of its own. Deterministic to a few bytes per actor with a large N (no timing is involved);
 * each kind is measured in three rounds after a warm-up round, and the median is reported with the range.
 *
 * <pre>
 * java -cp switchboard-bench/target/switchboard-bench.jar dev.switchboard.bench.memory.ActorFootprint [N] [kind...]
 * </pre>
 * Kinds: {@code actor}, {@code selector1}, {@code selector2}, {@code selector11}, {@code pekko} (an idle Pekko
 * classic actor, for comparison); all but pekko by default, N = 200,000. A kind followed by {@code +1}
 * ({@code actor+1}, {@code selector11+1}) has been sent one message, which it has processed, to its mailbox 0:
 * what a mailbox keeps once it has been used. Run it with a heap large enough for N
 * actors and the default collector (G1), whose {@code System.gc()} is a full collection; the Parallel collector
 * reads about 100 bytes per actor high in one round of several (the median is unaffected).
 */
public final class ActorFootprint {
    private ActorFootprint() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 200_000;
        List<String> kinds = args.length > 1 ? List.of(args).subList(1, args.length)
                : List.of("actor", "selector1", "selector2", "selector11");
        System.out.printf(Locale.ROOT, "%,d idle actors per kind; JVM %s, %s%n", n, Runtime.version(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            for (String kind : kinds) {
                long[] rounds = new long[ROUNDS];
                if (!kind.equals("pekko")) {
                    measure(runtime, kind, n);       // a warm-up round: class loading, the JIT's first allocations
                }
                for (int r = 0; r < ROUNDS; r++) {
                    rounds[r] = kind.equals("pekko") ? pekko(n) : measure(runtime, kind, n);
                }
                report(kind, rounds, n);
            }
        }
    }

    /** Measured rounds per kind; the report gives their median and range. */
    static final int ROUNDS = 3;

    private static void report(String kind, long[] rounds, int n) {
        long[] sorted = rounds.clone();
        java.util.Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-11s %8.1f bytes per idle %s (median of %d rounds; %.1f .. %.1f)%n", kind,
                (double) sorted[sorted.length / 2] / n,
                (kind.startsWith("selector") ? "selector of " + kind.substring(8).replace("+1", "") + " mailboxes"
                        : "actor") + (kind.endsWith("+1") ? " after one message" : ""),
                rounds.length, (double) sorted[0] / n, (double) sorted[sorted.length - 1] / n);
    }

    /** Bytes retained by {@code n} started, idle actors of {@code kind}. */
    static long measure(TaskRuntime runtime, String kind, int n) {
        ActorCore<?>[] actors = new ActorCore<?>[n];
        @SuppressWarnings("unchecked")
        dev.switchboard.actor.ActorRef<Object>[] refs = new dev.switchboard.actor.ActorRef[n];
        long[] retained = new long[1];
        runtime.finish(() -> {
            long before = usedAfterGc();
            boolean used = kind.endsWith("+1");
            for (int i = 0; i < n; i++) {
                ActorCore<Object> a = create(used ? kind.substring(0, kind.length() - 2) : kind);
                actors[i] = a;
                refs[i] = a.start();
                if (used) {
                    touch(refs[i]);
                }
            }
            if (used) {
                for (ActorCore<?> a : actors) {
                    while (a.processedCount() == 0) {
                        Thread.onSpinWait();
                    }
                }
            }
            retained[0] = usedAfterGc() - before;
            for (dev.switchboard.actor.ActorRef<Object> r : refs) {
                stop(r);
            }
        });
        return retained[0];
    }

    private static ActorCore<Object> create(String kind) {
        return switch (kind) {
            case "actor" -> new IdleActor();
            case "selector1" -> new IdleSelector(1);
            case "selector2" -> new IdleSelector(2);
            case "selector11" -> new IdleSelector(11);
            default -> throw new IllegalArgumentException("unknown kind " + kind
                    + " (actor, selector1, selector2, selector11, pekko)");
        };
    }

    /** Sends a message that the actor processes and otherwise ignores. */
    private static void touch(dev.switchboard.actor.ActorRef<Object> a) {
        a.send(0);
    }

    private static void stop(dev.switchboard.actor.ActorRef<Object> a) {
        a.send(Boolean.TRUE);
    }

    /** An actor with no state of its own that exits on {@code TRUE} and ignores other messages. */
    static final class IdleActor extends Actor<Object> {
        @Override
        protected void process(Object message) {
            if (message == Boolean.TRUE) {
                exit();
            }
        }
    }

    /** A selector with no state of its own that exits on {@code TRUE} and ignores other messages. */
    static final class IdleSelector extends Selector<Object, Selector.Numbered> {
        IdleSelector(int mailboxes) {
            super(mailboxes);
        }

        @Override
        protected void process(Object message) {
            if (message == Boolean.TRUE) {
                exit();
            }
        }
    }

    /** Bytes retained by {@code n} idle Pekko actors (created with {@code actorOf}, then stopped). */
    static long pekko(int n) throws Exception {
        ActorSystem system = ActorSystem.create("footprint", PekkoSettings.defaults(2));
        try {
            ActorRef[] refs = new ActorRef[n];
            long before = usedAfterGc();
            for (int i = 0; i < n; i++) {
                refs[i] = system.actorOf(Props.create(IdlePekko.class, IdlePekko::new));
            }
            // actorOf returns before the actor's cell has been initialised on the dispatcher: wait for every one.
            CountDownLatch ready = new CountDownLatch(n);
            for (ActorRef r : refs) {
                r.tell(ready, ActorRef.noSender());
            }
            ready.await(5, TimeUnit.MINUTES);
            long retained = usedAfterGc() - before;
            for (ActorRef r : refs) {
                system.stop(r);
            }
            return retained;
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
        }
    }

    /** Counts the latch down on the message it is sent, and keeps nothing. */
    static final class IdlePekko extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().match(CountDownLatch.class, CountDownLatch::countDown).build();
        }
    }

    /** Heap in use after collections have stopped freeing anything: the least of at least three readings. */
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
