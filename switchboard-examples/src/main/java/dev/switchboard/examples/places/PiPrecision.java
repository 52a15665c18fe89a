package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import dev.switchboard.place.SelectorRecipe;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * [DistSelectors] §5, Precise Pi Computation (Fig. 13; Savina's PiPrecision): pi to a given number of digits from the
 * Bailey–Borwein–Plouffe series {@code pi = Σ (4/(8n+1) − 2/(8n+4) − 1/(8n+5) − 1/(8n+6)) / 16^n}, with
 * {@link BigDecimal}s. The master, on place 0, hands out the terms one at a time to workers on every place and adds
 * up what they send back; a worker that reports a term gets the next one. Once a term is below the precision, the
 * master hands out no more, waits for the terms still out, and stops the workers — so no worker exits with work in
 * its mailbox and nothing is lost.
 *
 * <p>The workers are selectors with a CONTROL and a WORK mailbox, control first (as in the paper's benchmarks).
 * The sum is exact at its scale, whatever order the terms come back in; the digits are those of the sum cut to
 * the precision, computed with {@value #GUARD} guard digits.
 */
public final class PiPrecision {
    /** Digits computed beyond those asked for, so that rounding in the terms does not reach the last one shown. */
    static final int GUARD = 10;

    enum Box { CONTROL, WORK }

    sealed interface WorkerMsg permits Work, Stop {
    }

    record Work(int term, int scale) implements WorkerMsg {
    }

    record Stop() implements WorkerMsg {
    }

    record Term(int worker, int place, int term, BigDecimal value) {
    }

    record NewWorker(int worker, ActorRef<Term> master) implements SelectorRecipe<WorkerMsg, Box> {
        @Override
        public Selector<WorkerMsg, Box> create() {
            return new Worker(worker, master);
        }

        @Override
        public Class<Box> mailboxes() {
            return Box.class;
        }
    }

    /** Term {@code n} of the series, rounded to {@code scale} digits after the point. */
    static BigDecimal term(int n, int scale) {
        long k = 8L * n;
        BigDecimal sum = fraction(4, k + 1, scale).subtract(fraction(2, k + 4, scale))
                .subtract(fraction(1, k + 5, scale)).subtract(fraction(1, k + 6, scale));
        return sum.divide(new BigDecimal(BigInteger.ONE.shiftLeft(4 * n)), scale, RoundingMode.HALF_EVEN);
    }

    private static BigDecimal fraction(long numerator, long denominator, int scale) {
        return BigDecimal.valueOf(numerator).divide(BigDecimal.valueOf(denominator), scale, RoundingMode.HALF_EVEN);
    }

    static final class Worker extends Selector<WorkerMsg, Box> {
        private final int worker;
        private final ActorRef<Term> master;

        Worker(int worker, ActorRef<Term> master) {
            super(Box.class);
            this.worker = worker;
            this.master = master;
        }

        @Override
        protected void process(WorkerMsg msg) {
            switch (msg) {
                case Work w -> master.send(new Term(worker, Places.current().here(), w.term(),
                        term(w.term(), w.scale())));
                case Stop s -> exit();
            }
        }
    }

    /** On place 0: hands out the terms and adds them up. */
    static final class Master extends Actor<Term> {
        private final int digits;
        private final int workersPerPlace;
        private final int scale;
        private final BigDecimal tolerance;
        private SelectorRef<WorkerMsg, Box>[] workers;
        int[] termsByPlace;
        private BigDecimal sum = BigDecimal.ZERO;
        private int next;
        private int out;
        private boolean precise;
        String pi;

        Master(int digits, int workersPerPlace) {
            this.digits = digits;
            this.workersPerPlace = workersPerPlace;
            this.scale = digits + GUARD;
            this.tolerance = BigDecimal.ONE.movePointLeft(scale);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void onStart() {
            Places places = Places.current();
            workers = SelectorRef.newArray(places.count() * workersPerPlace);
            termsByPlace = new int[places.count()];
            for (int i = 0; i < workers.length; i++) {
                workers[i] = places.start(i % places.count(), new NewWorker(i, self()));
                handOut(i);
            }
        }

        private void handOut(int worker) {
            workers[worker].send(Box.WORK, new Work(next++, scale));
            out++;
        }

        @Override
        protected void process(Term t) {
            sum = sum.add(t.value());
            termsByPlace[t.place()]++;
            out--;
            if (t.value().compareTo(tolerance) < 0) {
                precise = true;                            // every later term is smaller still
            }
            if (!precise) {
                handOut(t.worker());
            } else if (out == 0) {
                pi = sum.setScale(digits, RoundingMode.DOWN).toPlainString();
                for (SelectorRef<WorkerMsg, Box> w : workers) {
                    w.send(Box.CONTROL, new Stop());
                }
                exit();
            }
        }
    }

    /** Pi with the digits asked for after the point, the terms each place computed, and the run's report. */
    public record Result(String pi, int[] termsByPlace, PlacesReport report) {
        public int terms() {
            return Arrays.stream(termsByPlace).sum();
        }
    }

    public static Result run(Places.Builder launch, PrintStream out) throws InterruptedException {
        return run(launch, 1_000, 4, out);
    }

    static Result run(Places.Builder launch, int digits, int workersPerPlace, PrintStream out)
            throws InterruptedException {
        Master master = new Master(digits, workersPerPlace);
        PlacesReport report = launch.messages(Work.class, Stop.class, Term.class, NewWorker.class, BigDecimal.class)
                .run(places -> master.start());
        Result result = new Result(master.pi, master.termsByPlace, report);
        out.printf("pi to %d digits from %d terms (by place: %s):%n%s%n", digits, result.terms(),
                Arrays.toString(result.termsByPlace()), result.pi());
        out.println(report);
        return result;
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), System.out);
    }
}
