package dev.switchboard.bench.nqueensk;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.bench.nqueensk.NQueensFirstK.Kernel;
import dev.switchboard.bench.nqueensk.NQueensFirstK.Params;
import dev.switchboard.task.TaskRuntime;

/**
 * NQueensFirstK on Switchboard: master and workers are selectors whose mailboxes are the priority levels
 * ([Selectors] §5). The priority lives in the routing only; {@code process} does not know about it.
 */
final class SwitchboardNQueensFirstK {
    sealed interface Msg permits Work, Result, Done, Stop, StopAck {
    }

    /** A partial board of {@code depth} rows. */
    record Work(int priority, int[] board, int depth) implements Msg {
    }

    /** One solution found. */
    record Result() implements Msg {
    }

    /** A worker has finished one Work. */
    record Done() implements Msg {
    }

    record Stop() implements Msg {
    }

    record StopAck() implements Msg {
    }

    private static final Result RESULT = new Result();
    private static final Done DONE = new Done();
    private static final Stop STOP = new Stop();
    private static final StopAck STOP_ACK = new StopAck();

    private SwitchboardNQueensFirstK() {
    }

    static long run(TaskRuntime runtime, Params p) {
        Master master = new Master(p);
        runtime.finish(() -> {
            // the master is idle until the first Work, which is sent once its workers are in place
            ActorRef<Msg> masterRef = master.start();
            for (int i = 0; i < p.workers(); i++) {
                master.workers[i] = new Worker(p, masterRef).start();
            }
            masterRef.send(new Work(p.priorityOf(0), new int[0], 0));
        });
        return master.solutions;
    }

    /**
     * The mailbox of a message, the same for master and workers: solutions and the stop request first, then
     * subproblems from the deepest to the shallowest, and last the completion and stop acknowledgements. Done
     * must come after every Work: the master may conclude that all work is done only when no forwarded
     * subproblem is still waiting in its mailboxes.
     */
    static int mailboxOf(Msg msg, int priorities) {
        return switch (msg) {
            case Result r -> 0;
            case Stop s -> 0;
            case Work w -> 1 + w.priority();
            case Done d -> priorities + 1;
            case StopAck a -> priorities + 1;
        };
    }

    static final class Master extends Selector<Msg, Numbered> {
        private final Params p;
        final ActorRef<Msg>[] workers;
        private int next;
        private int sent;
        private int completed;
        private int acks;
        private boolean stopping;
        /** Solutions counted, never more than the limit. */
        long solutions;

        @SuppressWarnings("unchecked")
        Master(Params p) {
            super(p.priorities() + 2);
            this.p = p;
            this.workers = ActorRef.newArray(p.workers());
        }

        @Override
        protected int route(Msg msg) {
            return mailboxOf(msg, p.priorities());
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
                case Result r -> {
                    if (!stopping && ++solutions == p.solutionsLimit()) {
                        stopWorkers();
                    }
                }
                case Done d -> {
                    if (++completed == sent && !stopping) {
                        stopWorkers();
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
        private final Params p;
        private final ActorRef<Msg> master;
        private final Runnable reportSolution;

        Worker(Params p, ActorRef<Msg> master) {
            super(p.priorities() + 2);
            this.p = p;
            this.master = master;
            this.reportSolution = () -> master.send(RESULT);
        }

        @Override
        protected int route(Msg msg) {
            return mailboxOf(msg, p.priorities());
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Work w -> {
                    if (w.depth() == p.size()) {
                        master.send(RESULT);
                    } else if (w.depth() >= p.threshold()) {
                        Kernel.solveSequentially(p.size(), w.board(), w.depth(), reportSolution);
                    } else {
                        int childPriority = p.priorityOf(w.depth() + 1);
                        Kernel.forEachChild(p.size(), w.board(), w.depth(),
                                b -> master.send(new Work(childPriority, b, w.depth() + 1)));
                    }
                    master.send(DONE);
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
