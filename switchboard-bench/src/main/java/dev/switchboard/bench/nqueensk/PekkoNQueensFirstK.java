package dev.switchboard.bench.nqueensk;

import com.typesafe.config.Config;
import dev.switchboard.bench.harness.PekkoRun;
import dev.switchboard.bench.nqueensk.NQueensFirstK.Kernel;
import dev.switchboard.bench.nqueensk.NQueensFirstK.Params;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.dispatch.PriorityGenerator;
import org.apache.pekko.dispatch.UnboundedStablePriorityMailbox;

/**
 * NQueensFirstK on Pekko classic actors: every actor has a stable priority mailbox that orders messages as
 * Switchboard's selectors order their mailboxes (the Pekko documentation's way to prioritise messages).
 */
final class PekkoNQueensFirstK {
    record Work(int priority, int[] board, int depth) {
    }

    record Result() {
    }

    record Done() {
    }

    record Stop() {
    }

    record StopAck() {
    }

    private static final Result RESULT = new Result();
    private static final Done DONE = new Done();
    private static final Stop STOP = new Stop();
    private static final StopAck STOP_ACK = new StopAck();

    private PekkoNQueensFirstK() {
    }

    static long run(ActorSystem system, Params p) throws Exception {
        if (!system.settings().config().hasPath(NQueensFirstK.PEKKO_MAILBOX)) {
            throw new IllegalStateException("the actor system's configuration lacks the priority mailbox: add "
                    + NQueensFirstK.PEKKO_MAILBOX_CONFIG.strip());
        }
        PekkoRun run = new PekkoRun();
        ActorRef master = run.spawn(system,
                Props.create(Master.class, () -> new Master(run, p)).withMailbox(NQueensFirstK.PEKKO_MAILBOX));
        master.tell(new Work(p.priorityOf(0), new int[0], 0), ActorRef.noSender());
        return run.await();
    }

    /**
     * Lower is more urgent: solutions and stop requests, then subproblems from the deepest, then completions
     * and acknowledgements (after every Work, for the master's all-done test). Stable: equal priorities keep
     * their arrival order, as messages in one selector mailbox do.
     */
    public static final class DepthPriorityMailbox extends UnboundedStablePriorityMailbox {
        private static final int LAST = Integer.MAX_VALUE;

        public DepthPriorityMailbox(ActorSystem.Settings settings, Config config) {
            super(new PriorityGenerator() {
                @Override
                public int gen(Object message) {
                    return switch (message) {
                        case Result r -> 0;
                        case Stop s -> 0;
                        case Work w -> 1 + w.priority();
                        default -> LAST;
                    };
                }
            });
        }
    }

    static final class Master extends PekkoRun.Counted {
        private final Params p;
        private final ActorRef[] workers;
        private int next;
        private int sent;
        private int completed;
        private int acks;
        private boolean stopping;
        private long solutions;

        Master(PekkoRun run, Params p) {
            super(run);
            this.p = p;
            this.workers = new ActorRef[p.workers()];
        }

        @Override
        public void preStart() {
            ActorRef self = getSelf();
            PekkoRun r = run;
            Params params = p;
            for (int i = 0; i < workers.length; i++) {
                workers[i] = run.spawn(getContext(), Props.create(Worker.class, () -> new Worker(r, params, self))
                        .withMailbox(NQueensFirstK.PEKKO_MAILBOX));
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        if (!stopping) {
                            workers[next].tell(w, getSelf());
                            next = next + 1 == workers.length ? 0 : next + 1;
                            sent++;
                        }
                    })
                    .match(Result.class, r -> {
                        if (!stopping && ++solutions == p.solutionsLimit()) {
                            stopWorkers();
                        }
                    })
                    .match(Done.class, d -> {
                        if (++completed == sent && !stopping) {
                            stopWorkers();
                        }
                    })
                    .match(StopAck.class, a -> {
                        if (++acks == workers.length) {
                            getContext().stop(getSelf());
                            run.complete(solutions);
                        }
                    })
                    .build();
        }

        private void stopWorkers() {
            stopping = true;
            for (ActorRef w : workers) {
                w.tell(STOP, getSelf());
            }
        }
    }

    static final class Worker extends PekkoRun.Counted {
        private final Params p;
        private final ActorRef master;
        private final Runnable reportSolution;

        Worker(PekkoRun run, Params p, ActorRef master) {
            super(run);
            this.p = p;
            this.master = master;
            this.reportSolution = () -> master.tell(RESULT, getSelf());
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        if (w.depth() == p.size()) {
                            master.tell(RESULT, getSelf());
                        } else if (w.depth() >= p.threshold()) {
                            Kernel.solveSequentially(p.size(), w.board(), w.depth(), reportSolution);
                        } else {
                            int childPriority = p.priorityOf(w.depth() + 1);
                            Kernel.forEachChild(p.size(), w.board(), w.depth(),
                                    b -> master.tell(new Work(childPriority, b, w.depth() + 1), getSelf()));
                        }
                        master.tell(DONE, getSelf());
                    })
                    .match(Stop.class, s -> {
                        master.tell(STOP_ACK, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
