package dev.switchboard.place;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Place 0's hang reports, for the whole program: when a finish at place 0 makes no progress, its runtime's report
 * is held while every other place is asked for its part ({@link Frames.ReportRequest}: what keeps its runtime busy
 * and what it waits for); the whole, with the failures of other places so far, goes to the reporter once every
 * place has answered, or after {@link #WAIT} with the silent ones named.
 */
final class HangReportGathering {
    /** How long the other places have to answer. */
    static final Duration WAIT = Duration.ofSeconds(2);
    /** Failures of other places a report shows by name; the rest are counted. */
    private static final int SHOWN_FAILURES = 3;

    private final PlaceRuntime place;
    private final Consumer<String> reporter;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<Long, Gathering> open = new ConcurrentHashMap<>();

    HangReportGathering(PlaceRuntime place, Consumer<String> reporter) {
        this.place = place;
        this.reporter = reporter;
    }

    /** One report being gathered: place 0's part, and the others' as they come. */
    private static final class Gathering {
        private final String local;
        private final String[] parts;
        private int missing;

        Gathering(String local, int places) {
            this.local = local;
            this.parts = new String[places];
            this.missing = places - 1;
        }

        /** Records {@code place}'s part; true once every place's is in. */
        synchronized boolean answer(int place, String text) {
            if (place > 0 && place < parts.length && parts[place] == null) {
                parts[place] = text;
                missing--;
            }
            return missing == 0;
        }

        synchronized String[] parts() {
            return parts.clone();
        }
    }

    /** The runtime's hang reporter at place 0 (its watchdog's thread): asks the other places, does not wait. */
    void gather(String local) {
        Transport transport = place.transport();
        if (local.startsWith("Switchboard stall")) {
            reporter.accept(local);               // one worker of this place: nothing to ask the others about
            return;
        }
        if (place.count() == 1 || transport == null) {
            reporter.accept(render(local, new String[1]));
            return;
        }
        long id = ids.incrementAndGet();
        Gathering g = new Gathering(local, place.count());
        open.put(id, g);
        boolean all = false;
        for (int p = 1; p < place.count(); p++) {
            try {
                transport.sendControl(p, new Frames.ReportRequest(id));
            } catch (RuntimeException e) {
                all = g.answer(p, "cannot be asked: " + e.getMessage());
            }
        }
        if (all) {
            emit(id);
        } else {
            transport.schedule(() -> emitElsewhere(id), WAIT);
        }
    }

    /** A place's part came (the transport's I/O thread). */
    void answered(Frames.Report report) {
        Gathering g = open.get(report.id());
        if (g != null && g.answer(report.place(), report.text())) {
            emitElsewhere(report.id());
        }
    }

    /** Emits off the transport's I/O thread: the reporter is the program's, and may take its time. */
    private void emitElsewhere(long id) {
        java.util.concurrent.CompletableFuture.runAsync(() -> emit(id));
    }

    private void emit(long id) {
        Gathering g = open.remove(id);
        if (g != null) {
            try {
                reporter.accept(render(g.local, g.parts()));
            } catch (RuntimeException e) {             // the program's reporter: its failure must not reach the
                System.getLogger(HangReportGathering.class.getName()).log(System.Logger.Level.ERROR,   // transport
                        "the hang reporter failed: " + e);
            }
        }
    }

    private String render(String local, String[] parts) {
        StringBuilder sb = new StringBuilder(local);
        if (parts.length > 1) {
            sb.append("\n  at the other places:");
            for (int p = 1; p < parts.length; p++) {
                sb.append("\n  - place ").append(place.names.get(p)).append(": ");
                String part = parts[p] != null ? parts[p]
                        : "did not answer within " + WAIT.toSeconds() + " s (frozen, overloaded, or cut off)";
                sb.append(part.replace("\n", "\n      "));
            }
        }
        List<Throwable> failures = place.failuresSoFar();
        long count = failures.size() + place.failuresNotKept();
        if (count > 0) {
            sb.append("\n  ").append(count).append(count == 1 ? " failure" : " failures")
                    .append(" at other places so far:");
            for (int i = 0; i < Math.min(SHOWN_FAILURES, failures.size()); i++) {
                sb.append("\n  - ").append(failures.get(i).getMessage());
            }
            if (count > SHOWN_FAILURES) {
                sb.append("\n  - and ").append(count - Math.min(SHOWN_FAILURES, failures.size())).append(" more");
            }
        }
        return sb.toString();
    }
}
