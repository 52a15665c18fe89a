package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * [DistSelectors] §5, Trapezoidal Approximation (Fig. 12; Savina's Trapezoid): the integral of
 * {@code f(x) = 1/(x+1) · sqrt(1 + e^sqrt(2x)) · sin(x³ − 1)} over [1, 5] by the trapezoidal rule, in a
 * master-worker style with workers on every place. The master, on place 0, creates the workers at their places and
 * sends each its interval at once: a reference works before its actor exists, and the message waits for it. Each
 * worker integrates its interval, reports the area to the master and exits; the master sums the areas in interval
 * order once all are in.
 *
 * <p>As in the paper's experiment the scaling is weak: every place gets the same number of workers and of pieces,
 * so more places integrate the same interval with more, narrower pieces. {@code f} uses {@link StrictMath}, the
 * same bits on every JVM, so the sum equals {@link #sequential} exactly, whichever place computed which part.
 */
public final class Trapezoid {
    static final double LEFT = 1;
    static final double RIGHT = 5;

    record Work(double left, double right, long pieces) {
    }

    record Partial(int worker, int place, double area) {
    }

    record NewWorker(int worker, ActorRef<Partial> master) implements ActorRecipe<Work> {
        @Override
        public Actor<Work> create() {
            return new Worker(worker, master);
        }
    }

    static double f(double x) {
        return 1 / (x + 1) * StrictMath.sqrt(1 + StrictMath.exp(StrictMath.sqrt(2 * x)))
                * StrictMath.sin(x * x * x - 1);
    }

    /** The trapezoidal rule on [left, right] with {@code pieces} pieces of equal width. */
    static double area(double left, double right, long pieces) {
        double h = (right - left) / pieces;
        double sum = (f(left) + f(right)) / 2;
        for (long i = 1; i < pieces; i++) {
            sum += f(left + i * h);
        }
        return sum * h;
    }

    /** The left end of interval {@code i} of {@code n}; interval {@code i} ends where {@code i + 1} begins. */
    static double boundary(int i, int n) {
        return i == n ? RIGHT : LEFT + (RIGHT - LEFT) * i / n;
    }

    /** The same intervals, integrated one after the other and summed in the master's order. */
    static double sequential(int places, int workersPerPlace, long piecesPerWorker) {
        int n = places * workersPerPlace;
        double total = 0;
        for (int i = 0; i < n; i++) {
            total += area(boundary(i, n), boundary(i + 1, n), piecesPerWorker);
        }
        return total;
    }

    static final class Worker extends Actor<Work> {
        private final int worker;
        private final ActorRef<Partial> master;

        Worker(int worker, ActorRef<Partial> master) {
            this.worker = worker;
            this.master = master;
        }

        @Override
        protected void process(Work w) {
            master.send(new Partial(worker, Places.current().here(), area(w.left(), w.right(), w.pieces())));
            exit();
        }
    }

    /** On place 0: hands out the intervals and sums the areas. */
    static final class Master extends Actor<Partial> {
        private final int workersPerPlace;
        private final long piecesPerWorker;
        private double[] areas;
        int[] workersOnPlace;
        private int left;
        double total;

        Master(int workersPerPlace, long piecesPerWorker) {
            this.workersPerPlace = workersPerPlace;
            this.piecesPerWorker = piecesPerWorker;
        }

        @Override
        protected void onStart() {
            Places places = Places.current();
            int n = places.count() * workersPerPlace;
            areas = new double[n];
            workersOnPlace = new int[places.count()];
            left = n;
            for (int i = 0; i < n; i++) {
                ActorRef<Work> worker = places.start(i % places.count(), new NewWorker(i, self()));
                worker.send(new Work(boundary(i, n), boundary(i + 1, n), piecesPerWorker));
            }
        }

        @Override
        protected void process(Partial p) {
            areas[p.worker()] = p.area();
            workersOnPlace[p.place()]++;
            if (--left == 0) {
                total = Arrays.stream(areas).reduce(0, Double::sum);
                exit();
            }
        }
    }

    /**
     * The integral, the pieces it was computed with, how many workers reported from each place, and the run's
     * report.
     */
    public record Result(double integral, long pieces, int[] workersOnPlace, PlacesReport report) {
    }

    public static Result run(Places.Builder launch, PrintStream out) throws InterruptedException {
        return run(launch, 4, 250_000, out);
    }

    static Result run(Places.Builder launch, int workersPerPlace, long piecesPerWorker, PrintStream out)
            throws InterruptedException {
        Master master = new Master(workersPerPlace, piecesPerWorker);
        PlacesReport report = launch.messages(Work.class, Partial.class, NewWorker.class)
                .run(places -> master.start());
        long pieces = piecesPerWorker * master.workersOnPlace.length * workersPerPlace;
        out.printf("integral of f over [%.0f, %.0f] with %,d pieces: %.12f (workers per place: %s)%n", LEFT, RIGHT,
                pieces, master.total, Arrays.toString(master.workersOnPlace));
        out.println(report);
        return new Result(master.total, pieces, master.workersOnPlace, report);
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), System.out);
    }
}
