package dev.switchboard.bench.concsll;

import dev.switchboard.bench.concsll.SortedLinkedList.IntList;
import dev.switchboard.bench.concsll.SortedLinkedList.Kind;
import dev.switchboard.bench.concsll.SortedLinkedList.Params;
import dev.switchboard.bench.concsll.SortedLinkedList.Requests;
import dev.switchboard.bench.harness.PekkoRun;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** SortedLinkedList on Pekko classic actors: the list is a serial actor, as in Savina. */
final class PekkoSortedLinkedList {
    record Insert(int value) {
    }

    record Contains(int value) {
    }

    record Size() {
    }

    record Result(int value) {
    }

    record Start() {
    }

    record WorkerDone(long checksum) {
    }

    /** No more requests; carries the workers' checksum, to which the list adds its length. */
    record End(long checksum) {
    }

    private PekkoSortedLinkedList() {
    }

    static long run(ActorSystem system, Params p) throws Exception {
        PekkoRun run = new PekkoRun();
        run.spawn(system, Props.create(Master.class, () -> new Master(run, p)));
        return run.await();
    }

    static final class Master extends PekkoRun.Counted {
        private final Params p;
        private ActorRef list;
        private int running;
        private long checksum;

        Master(PekkoRun run, Params p) {
            super(run);
            this.p = p;
            this.running = p.workers();
        }

        @Override
        public void preStart() {
            PekkoRun r = run;
            list = run.spawn(getContext(), Props.create(ListActor.class, () -> new ListActor(r)));
            ActorRef self = getSelf();
            ActorRef l = list;
            for (int i = 0; i < p.workers(); i++) {
                Requests requests = new Requests(i, p);
                ActorRef worker = run.spawn(getContext(),
                        Props.create(Worker.class, () -> new Worker(r, self, l, requests)));
                worker.tell(new Start(), getSelf());
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(WorkerDone.class, d -> {
                        checksum += d.checksum();
                        if (--running == 0) {
                            list.tell(new End(checksum), getSelf());
                            getContext().stop(getSelf());
                        }
                    })
                    .build();
        }
    }

    static final class ListActor extends PekkoRun.Counted {
        private final IntList list = new IntList();

        ListActor(PekkoRun run) {
            super(run);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Contains.class, c -> getSender().tell(new Result(list.contains(c.value()) ? 1 : 0), getSelf()))
                    .match(Size.class, s -> getSender().tell(new Result(list.size()), getSelf()))
                    .match(Insert.class, i -> {
                        list.add(i.value());
                        getSender().tell(new Result(i.value()), getSelf());
                    })
                    .match(End.class, e -> {
                        getContext().stop(getSelf());
                        run.complete(e.checksum() + list.size());
                    })
                    .build();
        }
    }

    static final class Worker extends PekkoRun.Counted {
        private final ActorRef master;
        private final ActorRef list;
        private final Requests requests;
        private Kind pending;
        private long checksum;

        Worker(PekkoRun run, ActorRef master, ActorRef list, Requests requests) {
            super(run);
            this.master = master;
            this.list = list;
            this.requests = requests;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> request())
                    .match(Result.class, r -> {
                        checksum += 1 + (pending == Kind.CONTAINS ? r.value() : 0);
                        request();
                    })
                    .build();
        }

        private void request() {
            if (requests.next()) {
                pending = requests.kind;
                list.tell(switch (requests.kind) {
                    case INSERT -> new Insert(requests.value);
                    case CONTAINS -> new Contains(requests.value);
                    case SIZE -> new Size();
                }, getSelf());
            } else {
                master.tell(new WorkerDone(checksum), getSelf());
                getContext().stop(getSelf());
            }
        }
    }
}
