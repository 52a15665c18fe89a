package dev.switchboard.bench.astar;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.bench.astar.AStar.Grid;
import dev.switchboard.bench.astar.AStar.Search;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * AStar on Switchboard: master and workers are selectors whose mailboxes are distance buckets ([Selectors] §5);
 * {@code process} does not know about priorities, the routing does.
 */
final class SwitchboardAStar {
    sealed interface Msg permits Work, Found, Received, Stop, StopAck {
    }

    /** Expand from {@code node}; {@code priority} is its distance bucket. */
    record Work(int node, int priority) implements Msg {
    }

    /** A worker reached the target. */
    record Found() implements Msg {
    }

    /** A worker has finished one Work. */
    record Received() implements Msg {
    }

    record Stop() implements Msg {
    }

    record StopAck() implements Msg {
    }

    /**
     * The items of work the master deals out per turn. A best-first search wants them few: between two turns of
     * the master the workers' new work arrives in its distance buckets, and the nearest of it goes out next; a
     * turn of 64 would deal out 64 items of its backlog first (decision 013, "AStar: the nodes a search claims").
     */
    static final int MASTER_THROUGHPUT = 5;
    private static final Found FOUND = new Found();
    private static final Received RECEIVED = new Received();
    private static final Stop STOP = new Stop();
    private static final StopAck STOP_ACK = new StopAck();

    private SwitchboardAStar() {
    }

    static long run(TaskRuntime runtime, Grid grid, int workers, int threshold) {
        return run(runtime, grid, workers, threshold, MASTER_THROUGHPUT, grid.newParents());
    }

    /**
     * One search that claims nodes in {@code parents} (fresh from {@link Grid#newParents}), its master dealing out
     * at most {@code masterThroughput} items of work a turn (0: the runtime's budget); the checksum.
     */
    static long run(TaskRuntime runtime, Grid grid, int workers, int threshold, int masterThroughput,
            AtomicIntegerArray parents) {
        Master master = new Master(grid, workers, masterThroughput);
        runtime.finish(() -> {
            // the master is idle until the first Work, which is sent once its workers are in place
            ActorRef<Msg> masterRef = master.start();
            for (int i = 0; i < workers; i++) {
                master.workers[i] = new Worker(grid, masterRef, new Search(grid, parents, threshold, i)).start();
            }
            masterRef.send(new Work(grid.origin, grid.priority(grid.origin)));
        });
        return grid.checksum(parents);
    }

    /**
     * The mailbox of a message, the same for master and workers: the target found and the stop request first,
     * then work from the nearest bucket to the farthest, and last the completion and stop acknowledgements.
     * Completions come after every Work: the master may conclude that the search space is exhausted only when
     * no forwarded work is still waiting in its mailboxes.
     */
    static int mailboxOf(Msg msg, int priorities) {
        return switch (msg) {
            case Found f -> 0;
            case Stop s -> 0;
            case Work w -> 1 + w.priority();
            case Received r -> priorities + 1;
            case StopAck a -> priorities + 1;
        };
    }

    static final class Master extends Selector<Msg, Numbered> {
        private final int priorities;
        final ActorRef<Msg>[] workers;
        private int next;
        private int sent;
        private int completed;
        private int acks;
        private boolean stopping;

        Master(Grid grid, int workers, int throughput) {
            super(grid.priorities() + 2);
            this.priorities = grid.priorities();
            this.workers = ActorRef.newArray(workers);
            if (throughput > 0) {
                throughput(throughput);
            }
        }

        @Override
        protected int route(Msg msg) {
            return mailboxOf(msg, priorities);
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Work w -> {
                    if (!stopping) {
                        workers[next].send(w);
                        next = next + 1 == workers.length ? 0 : next + 1;
                        sent++;
                    }
                }
                case Found f -> {
                    if (!stopping) {
                        stopWorkers();
                    }
                }
                case Received r -> {
                    if (++completed == sent && !stopping) {
                        stopWorkers();                      // exhausted without reaching the target
                    }
                }
                case StopAck a -> {
                    if (++acks == workers.length) {
                        exit();
                    }
                }
                case Stop s -> throw new IllegalStateException("the master is never asked to stop");
            }
        }

        private void stopWorkers() {
            stopping = true;
            for (ActorRef<Msg> w : workers) {
                w.send(STOP);
            }
        }
    }

    static final class Worker extends Selector<Msg, Numbered> {
        private final Grid grid;
        private final ActorRef<Msg> master;
        private final Search search;

        Worker(Grid grid, ActorRef<Msg> master, Search search) {
            super(grid.priorities() + 2);
            this.grid = grid;
            this.master = master;
            this.search = search;
        }

        @Override
        protected int route(Msg msg) {
            return mailboxOf(msg, grid.priorities());
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Work w -> {
                    if (search.expand(w.node(), node -> master.send(new Work(node, grid.priority(node))))) {
                        master.send(FOUND);
                    }
                    master.send(RECEIVED);
                }
                case Stop s -> {
                    master.send(STOP_ACK);
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
