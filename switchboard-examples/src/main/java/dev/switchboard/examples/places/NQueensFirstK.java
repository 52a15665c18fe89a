package dev.switchboard.examples.places;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import dev.switchboard.place.SelectorRecipe;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * [DistSelectors] §5, NQueens First K Solutions (Fig. 14; Savina's NQueens-first-K, [Selectors] §5.1): the first
 * {@code k} solutions of the N-queens problem, found by a master on place 0 and workers on every place. A worker
 * given a partial board below the threshold depth sends its valid one-queen-deeper boards back to the master as new
 * work; at the threshold it completes the board sequentially and sends every solution. The master hands the work
 * out round robin and stops the workers once it has {@code k} solutions (or once no work is left, if the board has
 * fewer).
 *
 * <p>Priorities are mailboxes ([Selectors] §5): master and workers are selectors with the mailboxes of {@link Box},
 * served most urgent first, and they route every message by what it is — a solution or a stop first, then work from
 * the deepest board to the shallowest, then the bookkeeping. Deeper work first makes the search depth-first, so
 * solutions come early; {@code process} knows nothing of priorities. The bookkeeping comes last so that when the
 * master counts a worker's completion, the work that worker sent before it has been handed out.
 *
 * <p>Stopping loses nothing: a stop tells a worker how many boards the master sent it; the worker drops the ones it
 * had not started, acknowledges and exits once it has received them all; the master exits once every worker has
 * acknowledged, and by then every message a worker sent it has been processed. The run ends with no dead letter.
 */
public final class NQueensFirstK {
    /** The deepest partial board the mailboxes tell apart: the threshold is at most this. */
    static final int MAX_DEPTH = 4;

    /** The mailboxes, most urgent first. */
    enum Box { URGENT, DEPTH_4, DEPTH_3, DEPTH_2, DEPTH_1, DEPTH_0, BOOKKEEPING }

    sealed interface Msg permits Work, Solution, Done, Stop, StopAck {
    }

    /** A partial board: {@code board[row]} is the column of the queen in that row, for the first {@code depth}. */
    record Work(int[] board, int depth) implements Msg {
    }

    record Solution(int[] board) implements Msg {
    }

    /** A worker has finished one Work. */
    record Done() implements Msg {
    }

    /** Stop, after the {@code works} boards the master has sent this worker. */
    record Stop(int works) implements Msg {
    }

    record StopAck() implements Msg {
    }

    record NewWorker(int size, int threshold, ActorRef<Msg> master) implements SelectorRecipe<Msg, Box> {
        @Override
        public Selector<Msg, Box> create() {
            return new Worker(size, threshold, master);
        }

        @Override
        public Class<Box> mailboxes() {
            return Box.class;
        }
    }

    /** The mailbox of a message, the same for master and workers. */
    static Box mailboxOf(Msg msg) {
        return switch (msg) {
            case Solution s -> Box.URGENT;
            case Stop s -> Box.URGENT;
            case Work w -> Box.values()[Box.DEPTH_0.ordinal() - w.depth()];
            case Done d -> Box.BOOKKEEPING;
            case StopAck a -> Box.BOOKKEEPING;
        };
    }

    /** Whether the queens of {@code board}'s first {@code rows} rows leave each other alone. */
    static boolean valid(int[] board, int rows) {
        for (int i = 0; i < rows; i++) {
            for (int j = i + 1; j < rows; j++) {
                int d = board[j] - board[i];
                if (d == 0 || d == j - i || d == i - j) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Calls {@code then} with each valid board one row deeper than {@code board}, in column order. */
    static void forEachChild(int size, int[] board, int depth, Consumer<int[]> then) {
        for (int column = 0; column < size; column++) {
            int[] child = Arrays.copyOf(board, depth + 1);
            child[depth] = column;
            if (valid(child, depth + 1)) {
                then.accept(child);
            }
        }
    }

    /** Calls {@code then} with every solution that completes {@code board}. */
    static void solve(int size, int[] board, int depth, Consumer<int[]> then) {
        if (depth == size) {
            then.accept(board);
        } else {
            forEachChild(size, board, depth, child -> solve(size, child, depth + 1, then));
        }
    }

    static final class Worker extends Selector<Msg, Box> {
        private final int size;
        private final int threshold;
        private final ActorRef<Msg> master;
        private int received;
        private int toReceive = -1;

        Worker(int size, int threshold, ActorRef<Msg> master) {
            super(Box.class);
            this.size = size;
            this.threshold = threshold;
            this.master = master;
        }

        @Override
        protected int route(Msg msg) {
            return mailboxOf(msg).ordinal();
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Work w -> {
                    received++;
                    if (toReceive < 0) {
                        if (w.depth() >= threshold) {
                            solve(size, w.board(), w.depth(), b -> master.send(new Solution(b)));
                        } else {
                            forEachChild(size, w.board(), w.depth(), b -> master.send(new Work(b, w.depth() + 1)));
                        }
                        master.send(new Done());
                    }
                }
                case Stop s -> toReceive = s.works();
                default -> throw new IllegalStateException("a worker got " + msg);
            }
            if (received == toReceive) {
                master.send(new StopAck());
                exit();
            }
        }
    }

    /** On place 0: hands out the work and keeps the first {@code k} solutions. */
    static final class Master extends Selector<Msg, Box> {
        private final int size;
        private final int threshold;
        private final int k;
        private final int workersPerPlace;
        private final List<ActorRef<Msg>> workers = new ArrayList<>();
        private int[] sentTo;
        private int next;
        private int sent;
        private int completed;
        private int acks;
        private boolean stopping;
        final List<int[]> solutions = new ArrayList<>();
        /** Solutions that arrived after the k-th: the search was already stopping. */
        int late;

        Master(int size, int threshold, int k, int workersPerPlace) {
            super(Box.class);
            this.size = size;
            this.threshold = threshold;
            this.k = k;
            this.workersPerPlace = workersPerPlace;
        }

        @Override
        protected int route(Msg msg) {
            return mailboxOf(msg).ordinal();
        }

        @Override
        protected void onStart() {
            Places places = Places.current();
            for (int i = 0; i < places.count() * workersPerPlace; i++) {
                SelectorRef<Msg, Box> w = places.start(i % places.count(), new NewWorker(size, threshold, self()));
                workers.add(w);
            }
            sentTo = new int[workers.size()];
            handOut(new Work(new int[0], 0));
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Work w -> {
                    if (!stopping) {
                        handOut(w);
                    }
                }
                case Solution s -> {
                    if (stopping) {
                        late++;
                    } else {
                        solutions.add(s.board());
                        if (solutions.size() == k) {
                            stopWorkers();
                        }
                    }
                }
                case Done d -> {
                    if (++completed == sent && !stopping) {
                        stopWorkers();                       // the whole tree is searched: fewer than k
                    }
                }
                case StopAck a -> {
                    if (++acks == workers.size()) {
                        exit();
                    }
                }
                case Stop s -> throw new IllegalStateException("the master is never asked to stop");
            }
        }

        private void handOut(Work w) {
            workers.get(next).send(w);
            sentTo[next]++;
            sent++;
            next = (next + 1) % workers.size();
        }

        private void stopWorkers() {
            stopping = true;
            for (int i = 0; i < workers.size(); i++) {
                workers.get(i).send(new Stop(sentTo[i]));
            }
        }
    }

    /** The solutions the master kept, in the order they came, how many came too late, and the run's report. */
    public record Result(List<int[]> solutions, int late, PlacesReport report) {
    }

    public static Result run(Places.Builder launch, PrintStream out) throws InterruptedException {
        return run(launch, 10, 3, 100, 2, out);
    }

    static Result run(Places.Builder launch, int size, int threshold, int k, int workersPerPlace, PrintStream out)
            throws InterruptedException {
        if (threshold < 1 || threshold > MAX_DEPTH || threshold >= size) {
            throw new IllegalArgumentException("the threshold is 1 to " + Math.min(MAX_DEPTH, size - 1) + ", not "
                    + threshold);
        }
        Master master = new Master(size, threshold, k, workersPerPlace);
        PlacesReport report = launch.messages(Work.class, Solution.class, Done.class, Stop.class, StopAck.class,
                NewWorker.class).run(places -> master.start());
        out.printf("%d of the first solutions on a %dx%d board (%d more came after the stop), the first: %s%n",
                master.solutions.size(), size, size, master.late,
                master.solutions.isEmpty() ? "none" : Arrays.toString(master.solutions.get(0)));
        out.println(report);
        return new Result(master.solutions, master.late, report);
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), System.out);
    }
}
