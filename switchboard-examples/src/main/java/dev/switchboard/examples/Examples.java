package dev.switchboard.examples;

import dev.switchboard.examples.places.NQueensFirstK;
import dev.switchboard.examples.places.PiPrecision;
import dev.switchboard.examples.places.PlacesBoundedBuffer;
import dev.switchboard.examples.places.PlacesJoin;
import dev.switchboard.examples.places.PlacesAsk;
import dev.switchboard.examples.places.PlacesRequestReply;
import dev.switchboard.examples.places.Trapezoid;
import dev.switchboard.place.Places;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The catalogue of examples: {@code ./switchboard examples} lists them, {@code ./switchboard examples NAME} runs
 * one.
 */
public final class Examples {
    /** Name → (figure, what it shows, how to make one). */
    record Entry(String figure, String summary, Supplier<Example> factory) {
    }

    static final Map<String, Entry> ALL = new LinkedHashMap<>();

    static {
        ALL.put("HelloWorld", new Entry("002 Fig. 4, 6", "an actor in a finish; started in one finish, fed from another",
                HelloWorld::new));
        ALL.put("PingPong", new Entry("002 Fig. 7b", "termination of two actors detected by finish",
                PingPongFinish::new));
        ALL.put("Quicksort", new Entry("002 Fig. 3", "quicksort with data-driven futures and asyncAwait",
                Quicksort::new));
        ALL.put("FirFilter", new Entry("002 Fig. 5", "the FIR stage parallelised inside an actor with asyncs and DDFs",
                FirFilter::new));
        ALL.put("ParallelizedActor", new Entry("002 Fig. 8", "a nested finish inside message processing",
                ParallelizedActor::new));
        ALL.put("EscapingAsyncs", new Entry("002 Fig. 10", "escaping asyncs with pause and resume",
                EscapingAsyncs::new));
        ALL.put("ReceiveWithDdf", new Entry("002 Fig. 11", "a synchronous receive built on a DDF and pause/resume",
                ReceiveWithDdf::new));
        ALL.put("StatelessActor", new Entry("002 Fig. 12", "a stateless actor processing messages in parallel",
                StatelessLookup::new));
        ALL.put("AwaitReply", new Entry("002 Fig. 16", "awaitReply and reply", AwaitReply::new));
        ALL.put("DeathWatch", new Entry("-", "a coordinator watches its workers and hears how each ended",
                DeathWatch::new));
        ALL.put("Supervision", new Entry("-", "a parser restarted behind the same reference by its supervisor",
                Supervision::new));
        ALL.put("Routers", new Entry("-", "a round-robin pool, and a group routing by consistent hashing",
                Routers::new));
        ALL.put("ScheduleExploration", new Entry("-", "the test kit's PCT schedules find an ordering bug real runs"
                + " miss, and replay it", ScheduleExploration::new));
        ALL.put("FlightRecorder", new Entry("-", "failures, restarts, stops, dead letters, sampled messages as JFR events",
                FlightRecorder::new));
        ALL.put("Backpressure", new Entry("-", "a bounded mailbox holds a fast producer outside the runtime back",
                Backpressure::new));
        ALL.put("RequestReply", new Entry("000 Fig. 7", "selector request-reply: disable REGULAR until the REPLY",
                dev.switchboard.examples.selectors.RequestReply::new));
        ALL.put("JoinPatterns", new Entry("000 Fig. 11", "joins in any order and in round-robin order",
                dev.switchboard.examples.selectors.JoinPatterns::new));
        ALL.put("Priorities", new Entry("000 §5", "message priorities by mailbox",
                dev.switchboard.examples.selectors.Priorities::new));
        ALL.put("ReaderWriter", new Entry("000 Fig. 16, §6", "reader-writer with async reads and a DDC: AO, RF, WF",
                dev.switchboard.examples.selectors.ReaderWriter::new));
        ALL.put("BoundedBuffer", new Entry("000 Fig. 19, §7", "bounded buffer, imperative and declarative guards",
                dev.switchboard.examples.selectors.BoundedBuffer::new));
        ALL.put("DiningPhilosophers", new Entry("001 Listing 5", "a fair fork monitor on a table actor",
                dev.switchboard.examples.monitors.DiningPhilosophers::new));
        ALL.put("CollectiveBound", new Entry("001 Listing 6", "a synchronizer bounding outstanding requests",
                dev.switchboard.examples.monitors.CollectiveBound::new));
        ALL.put("FlockCouples", new Entry("001 §7", "the couples flock, serial and with a readers-writer monitor",
                dev.switchboard.examples.monitors.FlockCouples::new));
        ALL.put("TransactionalBank", new Entry("004 §4", "transfers as concurrent transactions, audits as read-only messages",
                dev.switchboard.examples.stm.TransactionalBank::new));
        ALL.put("SortedList", new Entry("004 §5.1", "a sorted linked list of TRefs: concurrent inserts and removes, a relaxed sum",
                dev.switchboard.examples.stm.SortedList::new));
        ALL.put("PlacesRequestReply", new Entry("003 Fig. 3", "request-reply between selectors of different places",
                onOnePlace(out -> PlacesRequestReply.run(Places.builder(), out))));
        ALL.put("PlacesAsk", new Entry("003, 002", "ask and awaitReply across places, a ReplyTo kept until done",
                onOnePlace(out -> PlacesAsk.run(Places.builder(), 100, out))));
        ALL.put("PlacesJoin", new Entry("003 Fig. 5", "joins in any order and round robin, the sources on other places",
                onOnePlace(out -> PlacesJoin.run(Places.builder(), out))));
        ALL.put("PlacesBoundedBuffer", new Entry("003 Fig. 6", "a guarded bounded buffer, producers and consumers on every place",
                onOnePlace(out -> PlacesBoundedBuffer.run(Places.builder(), out))));
        ALL.put("Trapezoid", new Entry("003 §5, Fig. 12", "trapezoidal integration by workers on every place",
                onOnePlace(out -> Trapezoid.run(Places.builder(), out))));
        ALL.put("PiPrecision", new Entry("003 §5, Fig. 13", "pi to 1,000 digits, terms handed out to workers on every place",
                onOnePlace(out -> PiPrecision.run(Places.builder(), out))));
        ALL.put("NQueensFirstK", new Entry("003 §5, Fig. 14", "the first k N-queens solutions, priorities as mailboxes",
                onOnePlace(out -> NQueensFirstK.run(Places.builder(), out))));
    }

    /** An example of places as the catalogue runs it: on one place, this JVM (its main takes --places N). */
    @FunctionalInterface
    private interface OnPlaces {
        void run(PrintStream out) throws InterruptedException;
    }

    private static Supplier<Example> onOnePlace(OnPlaces example) {
        return () -> out -> {
            try {
                example.run(out);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        };
    }

    private Examples() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.out.println("Examples (run one with ./switchboard examples NAME, or all with ./switchboard examples all):");
            ALL.forEach((name, e) -> System.out.printf("  %-19s %-15s %s%n", name, e.figure(), e.summary()));
            return;
        }
        for (String arg : args) {
            if (arg.equalsIgnoreCase("all")) {
                ALL.forEach(Examples::runOne);
                continue;
            }
            Map.Entry<String, Entry> found = ALL.entrySet().stream()
                    .filter(e -> e.getKey().toLowerCase(Locale.ROOT).equals(arg.toLowerCase(Locale.ROOT)))
                    .findFirst().orElse(null);
            if (found == null) {
                System.err.println("no example named '" + arg + "'; known: " + String.join(", ", ALL.keySet()));
                System.exit(2);
            }
            runOne(found.getKey(), found.getValue());
        }
    }

    private static void runOne(String name, Entry e) {
        System.out.println("== " + name + " (paper " + e.figure() + "): " + e.summary());
        e.factory().get().run(System.out);
        System.out.println();
    }
}
