package dev.switchboard.bench.txlist;

import dev.switchboard.bench.harness.PekkoRun;
import dev.switchboard.bench.txlist.Checksum.Digest;
import dev.switchboard.bench.txlist.TxList.Counts;
import dev.switchboard.bench.txlist.TxList.Op;
import dev.switchboard.bench.txlist.TxList.Params;
import java.util.BitSet;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * TxList on Pekko classic actors: serial list actors (plain fields), requesters that send a request with
 * themselves as the sender and send the next when the answer arrives; the list actors answer {@code getSender()}.
 */
final class PekkoTxList {
    record Lookup(int value) {
    }

    record Insert(int value) {
    }

    record Remove(int value) {
    }

    record Sum() {
    }

    /** The answer to a lookup, insert or remove. */
    record Answer(boolean yes) {
    }

    /** A list actor's sum. */
    record Partial(long sum) {
    }

    record Start() {
    }

    /** A requester is done; what its answers said. */
    record RequesterDone(Counts counts) {
    }

    /** Every requester is done: the list actor sends its values to the master and stops. */
    record End() {
    }

    /** A list actor's values in list order. */
    record Values(int list, SerialList values) {
    }

    private PekkoTxList() {
    }

    static long run(ActorSystem system, Params p, BitSet initial) throws Exception {
        PekkoRun run = new PekkoRun();
        run.spawn(system, Props.create(Master.class, () -> new Master(run, p, initial)));
        return run.await();
    }

    /** Creates the list actors and the requesters; ends the lists once the requesters are done; checks. */
    static final class Master extends PekkoRun.Counted {
        private final Params p;
        private final BitSet initial;
        private final ActorRef[] lists;
        private final Counts counts = new Counts();
        private final SerialList[] finalLists;
        private int requesters;
        private int listsLeft;

        Master(PekkoRun run, Params p, BitSet initial) {
            super(run);
            this.p = p;
            this.initial = initial;
            this.lists = new ActorRef[p.lists()];
            this.finalLists = new SerialList[p.lists()];
            this.requesters = p.requesters();
            this.listsLeft = p.lists();
        }

        @Override
        public void preStart() {
            PekkoRun r = run;
            for (int l = 0; l < lists.length; l++) {
                int index = l;
                int lo = l * p.valuesPerList();
                int hi = lo + p.valuesPerList();
                lists[l] = run.spawn(getContext(),
                        Props.create(ListActor.class, () -> new ListActor(r, index, initial, lo, hi)));
            }
            ActorRef self = getSelf();
            ActorRef[] ls = lists;
            for (int i = 0; i < p.requesters(); i++) {
                Requests requests = new Requests(i, p);
                ActorRef requester = run.spawn(getContext(),
                        Props.create(Requester.class, () -> new Requester(r, self, ls, requests)));
                requester.tell(new Start(), self);
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(RequesterDone.class, d -> {
                        counts.add(d.counts());
                        if (--requesters == 0) {
                            for (ActorRef list : lists) {
                                list.tell(new End(), getSelf());
                            }
                        }
                    })
                    .match(Values.class, v -> {
                        finalLists[v.list()] = v.values();
                        if (--listsLeft == 0) {
                            getContext().stop(getSelf());
                            run.complete(checksum());
                        }
                    })
                    .build();
        }

        private long checksum() {
            Digest digest = new Digest();
            for (int l = 0; l < finalLists.length; l++) {
                int lo = l * p.valuesPerList();
                digest.addList(l, lo, lo + p.valuesPerList(), finalLists[l].values());
            }
            return Checksum.checksum(p, initial, counts, digest);
        }
    }

    /** The serial list actor. */
    static final class ListActor extends PekkoRun.Counted {
        private final int index;
        private final SerialList list;

        ListActor(PekkoRun run, int index, BitSet initial, int lo, int hi) {
            super(run);
            this.index = index;
            this.list = new SerialList(initial, lo, hi);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Lookup.class, l -> getSender().tell(new Answer(list.lookup(l.value())), getSelf()))
                    .match(Insert.class, i -> getSender().tell(new Answer(list.insert(i.value())), getSelf()))
                    .match(Remove.class, r -> getSender().tell(new Answer(list.remove(r.value())), getSelf()))
                    .match(Sum.class, s -> getSender().tell(new Partial(list.sum()), getSelf()))
                    .match(End.class, e -> {
                        getSender().tell(new Values(index, list), getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }

    /** A request actor: one request at a time, the next once the answer (every answer, for a sum) is in. */
    static final class Requester extends PekkoRun.Counted {
        private final ActorRef master;
        private final ActorRef[] lists;
        private final Requests requests;
        private final Counts counts = new Counts();
        private Op pending;
        private int sumsPending;

        Requester(PekkoRun run, ActorRef master, ActorRef[] lists, Requests requests) {
            super(run);
            this.master = master;
            this.lists = lists;
            this.requests = requests;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> next())
                    .match(Answer.class, a -> {
                        counts.answer(pending, a.yes());
                        next();
                    })
                    .match(Partial.class, s -> {
                        counts.answers++;
                        if (--sumsPending == 0) {
                            next();
                        }
                    })
                    .build();
        }

        private void next() {
            if (!requests.next()) {
                master.tell(new RequesterDone(counts), getSelf());
                getContext().stop(getSelf());
                return;
            }
            pending = requests.op;
            switch (requests.op) {
                case LOOKUP -> lists[requests.list()].tell(new Lookup(requests.value), getSelf());
                case INSERT -> lists[requests.list()].tell(new Insert(requests.value), getSelf());
                case REMOVE -> lists[requests.list()].tell(new Remove(requests.value), getSelf());
                case SUM -> {
                    sumsPending = lists.length;
                    Sum sum = new Sum();
                    for (ActorRef list : lists) {
                        list.tell(sum, getSelf());
                    }
                }
            }
        }
    }
}
