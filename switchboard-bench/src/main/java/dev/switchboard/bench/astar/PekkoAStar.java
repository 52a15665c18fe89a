package dev.switchboard.bench.astar;

import com.typesafe.config.Config;
import dev.switchboard.bench.astar.AStar.Grid;
import dev.switchboard.bench.astar.AStar.Search;
import dev.switchboard.bench.harness.PekkoRun;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.dispatch.PriorityGenerator;
import org.apache.pekko.dispatch.UnboundedStablePriorityMailbox;

/**
 * AStar on Pekko classic actors: every actor has a stable priority mailbox that orders messages as
 * Switchboard's selectors order their mailboxes.
 */
final class PekkoAStar {
    record Work(int node, int priority) {
    }

    record Found() {
    }

    record Received() {
    }

    record Stop() {
    }

    record StopAck() {
    }

    private static final Found FOUND = new Found();
    private static final Received RECEIVED = new Received();
    private static final Stop STOP = new Stop();
    private static final StopAck STOP_ACK = new StopAck();

    private PekkoAStar() {
    }

    static long run(ActorSystem system, Grid grid, int workers, int threshold) throws Exception {
        return run(system, grid, workers, threshold, grid.newParents());
    }

    /** One search that claims nodes in {@code parents} (fresh from {@link Grid#newParents}); the checksum. */
    static long run(ActorSystem system, Grid grid, int workers, int threshold, AtomicIntegerArray parents)
            throws Exception {
        if (!system.settings().config().hasPath(AStar.PEKKO_MAILBOX)) {
            throw new IllegalStateException("the actor system's configuration lacks the priority mailbox: add "
                    + AStar.PEKKO_MAILBOX_CONFIG.strip());
        }
        PekkoRun run = new PekkoRun();
        ActorRef master = run.spawn(system, Props.create(Master.class,
                () -> new Master(run, grid, workers, threshold, parents)).withMailbox(AStar.PEKKO_MAILBOX));
        master.tell(new Work(grid.origin, grid.priority(grid.origin)), ActorRef.noSender());
        run.await();
        return grid.checksum(parents);
    }

    /**
     * Lower is more urgent: the target found and stop requests, then work from the nearest distance bucket,
     * then completions and acknowledgements (after every Work, for the master's exhaustion test). Stable: equal
     * priorities keep their arrival order, as messages in one selector mailbox do.
     */
    public static final class DistancePriorityMailbox extends UnboundedStablePriorityMailbox {
        private static final int LAST = Integer.MAX_VALUE;

        public DistancePriorityMailbox(ActorSystem.Settings settings, Config config) {
            super(new PriorityGenerator() {
                @Override
                public int gen(Object message) {
                    return switch (message) {
                        case Found f -> 0;
                        case Stop s -> 0;
                        case Work w -> 1 + w.priority();
                        default -> LAST;
                    };
                }
            });
        }
    }

    static final class Master extends PekkoRun.Counted {
        private final Grid grid;
        private final int threshold;
        private final AtomicIntegerArray parents;
        private final ActorRef[] workers;
        private int next;
        private int sent;
        private int completed;
        private int acks;
        private boolean stopping;

        Master(PekkoRun run, Grid grid, int workers, int threshold, AtomicIntegerArray parents) {
            super(run);
            this.grid = grid;
            this.threshold = threshold;
            this.parents = parents;
            this.workers = new ActorRef[workers];
        }

        @Override
        public void preStart() {
            ActorRef self = getSelf();
            PekkoRun r = run;
            Grid g = grid;
            for (int i = 0; i < workers.length; i++) {
                Search search = new Search(grid, parents, threshold, i);
                workers[i] = run.spawn(getContext(), Props.create(Worker.class, () -> new Worker(r, g, self, search))
                        .withMailbox(AStar.PEKKO_MAILBOX));
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
                    .match(Found.class, f -> {
                        if (!stopping) {
                            stopWorkers();
                        }
                    })
                    .match(Received.class, r -> {
                        if (++completed == sent && !stopping) {
                            stopWorkers();                  // exhausted without reaching the target
                        }
                    })
                    .match(StopAck.class, a -> {
                        if (++acks == workers.length) {
                            getContext().stop(getSelf());
                            run.complete(acks);
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
        private final Grid grid;
        private final ActorRef master;
        private final Search search;

        Worker(PekkoRun run, Grid grid, ActorRef master, Search search) {
            super(run);
            this.grid = grid;
            this.master = master;
            this.search = search;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Work.class, w -> {
                        if (search.expand(w.node(), node -> master.tell(new Work(node, grid.priority(node)), getSelf()))) {
                            master.tell(FOUND, getSelf());
                        }
                        master.tell(RECEIVED, getSelf());
                    })
                    .match(Stop.class, s -> {
                        master.tell(STOP_ACK, getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
