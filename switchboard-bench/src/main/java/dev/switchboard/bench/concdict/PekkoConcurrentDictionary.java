package dev.switchboard.bench.concdict;

import dev.switchboard.bench.concdict.ConcurrentDictionary.Params;
import dev.switchboard.bench.concdict.ConcurrentDictionary.Requests;
import dev.switchboard.bench.harness.PekkoRun;
import java.util.HashMap;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** ConcurrentDictionary on Pekko classic actors: the dictionary is a serial actor, as in Savina. */
final class PekkoConcurrentDictionary {
    record Read(int key) {
    }

    record Write(int key, int value) {
    }

    record Result(int value) {
    }

    record Start() {
    }

    record WorkerDone(long checksum) {
    }

    record End() {
    }

    private PekkoConcurrentDictionary() {
    }

    static long run(ActorSystem system, Params p, HashMap<Integer, Integer> table) throws Exception {
        PekkoRun run = new PekkoRun();
        run.spawn(system, Props.create(Master.class, () -> new Master(run, p, table)));
        return run.await();
    }

    static final class Master extends PekkoRun.Counted {
        private final Params p;
        private final HashMap<Integer, Integer> table;
        private ActorRef dictionary;
        private int running;
        private long checksum;

        Master(PekkoRun run, Params p, HashMap<Integer, Integer> table) {
            super(run);
            this.p = p;
            this.table = table;
            this.running = p.workers();
        }

        @Override
        public void preStart() {
            PekkoRun r = run;
            HashMap<Integer, Integer> t = table;
            dictionary = run.spawn(getContext(), Props.create(Dictionary.class, () -> new Dictionary(r, t)));
            ActorRef self = getSelf();
            ActorRef dict = dictionary;
            for (int i = 0; i < p.workers(); i++) {
                Requests requests = new Requests(i, p);
                ActorRef worker = run.spawn(getContext(),
                        Props.create(Worker.class, () -> new Worker(r, self, dict, requests)));
                worker.tell(new Start(), getSelf());
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(WorkerDone.class, d -> {
                        checksum += d.checksum();
                        if (--running == 0) {
                            dictionary.tell(new End(), getSelf());
                            getContext().stop(getSelf());
                            run.complete(checksum);
                        }
                    })
                    .build();
        }
    }

    static final class Dictionary extends PekkoRun.Counted {
        private final HashMap<Integer, Integer> map;

        Dictionary(PekkoRun run, HashMap<Integer, Integer> map) {
            super(run);
            this.map = map;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Read.class, r -> {
                        getSender().tell(new Result(map.get(r.key())), getSelf());
                    })
                    .match(Write.class, w -> {
                        map.put(w.key(), w.value());
                        getSender().tell(new Result(w.value()), getSelf());
                    })
                    .match(End.class, e -> getContext().stop(getSelf()))
                    .build();
        }
    }

    static final class Worker extends PekkoRun.Counted {
        private final ActorRef master;
        private final ActorRef dictionary;
        private final Requests requests;
        private long checksum;

        Worker(PekkoRun run, ActorRef master, ActorRef dictionary, Requests requests) {
            super(run);
            this.master = master;
            this.dictionary = dictionary;
            this.requests = requests;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> request())
                    .match(Result.class, r -> {
                        checksum += 1 + r.value();
                        request();
                    })
                    .build();
        }

        private void request() {
            if (requests.next()) {
                int key = requests.key;
                dictionary.tell(requests.write ? new Write(key, ConcurrentDictionary.valueOf(key)) : new Read(key),
                        getSelf());
            } else {
                master.tell(new WorkerDone(checksum), getSelf());
                getContext().stop(getSelf());
            }
        }
    }
}
