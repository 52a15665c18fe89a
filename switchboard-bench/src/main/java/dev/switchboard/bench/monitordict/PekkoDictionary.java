package dev.switchboard.bench.monitordict;

import dev.switchboard.bench.harness.PekkoRun;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

final class PekkoDictionary {
    record Get(int key) {
    }

    record Put(int key, int value) {
    }

    private PekkoDictionary() {
    }

    static long runSerial(ActorSystem system, Workload w) throws Exception {
        long[] ops = w.ops();
        PekkoRun run = new PekkoRun();
        ActorRef client = run.spawn(system, Props.create(Client.class, () -> new Client(run, reads(ops))));
        ActorRef dictionary = run.spawn(system, Props.create(Dictionary.class,
                () -> new Dictionary(run, new AssociationList(w.size()), ops.length)));
        send(ops, dictionary, client);
        return run.await();
    }

    /** [PAM] Fig. 5: a coordinator forwarding reads round-robin to replicas and broadcasting writes. */
    static long runReplicas(ActorSystem system, Workload w, int replicaCount) throws Exception {
        long[] ops = w.ops();
        int reads = reads(ops);
        int writes = ops.length - reads;
        PekkoRun run = new PekkoRun();
        ActorRef client = run.spawn(system, Props.create(Client.class, () -> new Client(run, reads)));
        AssociationList original = new AssociationList(w.size());
        ActorRef[] replicas = new ActorRef[replicaCount];
        for (int r = 0; r < replicaCount; r++) {
            int share = reads / replicaCount + (r < reads % replicaCount ? 1 : 0);
            AssociationList copy = original.copy();
            replicas[r] = run.spawn(system, Props.create(Dictionary.class,
                    () -> new Dictionary(run, copy, share + writes)));
        }
        ActorRef coordinator = run.spawn(system, Props.create(Coordinator.class,
                () -> new Coordinator(run, replicas, ops.length)));
        send(ops, coordinator, client);
        return run.await();
    }

    private static int reads(long[] ops) {
        int reads = 0;
        for (long op : ops) {
            if (op >= 0) {
                reads++;
            }
        }
        return reads;
    }

    private static void send(long[] ops, ActorRef dictionary, ActorRef client) {
        for (int i = 0; i < ops.length; i++) {
            long op = ops[i];
            if (op < 0) {
                dictionary.tell(new Put((int) (-op - 1), i), client);
            } else {
                dictionary.tell(new Get((int) op), client);
            }
        }
    }

    static final class Dictionary extends PekkoRun.Counted {
        private final AssociationList list;
        private int left;

        Dictionary(PekkoRun run, AssociationList list, int operations) {
            super(run);
            this.list = list;
            this.left = operations;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Get.class, g -> {
                        getSender().tell(list.get(g.key()), getSelf());
                        done();
                    })
                    .match(Put.class, p -> {
                        list.put(p.key(), p.value());
                        done();
                    })
                    .build();
        }

        private void done() {
            if (--left == 0) {
                getContext().stop(getSelf());
            }
        }
    }

    static final class Coordinator extends PekkoRun.Counted {
        private final ActorRef[] replicas;
        private int next;
        private int left;

        Coordinator(PekkoRun run, ActorRef[] replicas, int operations) {
            super(run);
            this.replicas = replicas;
            this.left = operations;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Get.class, g -> {
                        replicas[next].forward(g, getContext());
                        next = (next + 1) % replicas.length;
                        done();
                    })
                    .match(Put.class, p -> {
                        for (ActorRef r : replicas) {
                            r.forward(p, getContext());
                        }
                        done();
                    })
                    .build();
        }

        private void done() {
            if (--left == 0) {
                getContext().stop(getSelf());
            }
        }
    }

    static final class Client extends PekkoRun.Counted {
        private int answersLeft;
        private long sum;

        Client(PekkoRun run, int answers) {
            super(run);
            this.answersLeft = answers;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Integer.class, v -> {
                        sum += v;
                        if (--answersLeft == 0) {
                            getContext().stop(getSelf());
                            run.complete(sum);
                        }
                    })
                    .build();
        }
    }
}
