package dev.switchboard.bench.hotserver;

import dev.switchboard.bench.harness.PekkoRun;
import dev.switchboard.bench.hotserver.HotServer.Params;
import dev.switchboard.bench.hotserver.HotServer.Requests;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/** The hot server on Pekko classic actors: the server replies to {@code getSender()}. */
final class PekkoHotServer {
    record Read(int key) {
    }

    record Write(int key, int value) {
    }

    record Result(int value) {
    }

    record Start() {
    }

    record Stop() {
    }

    private PekkoHotServer() {
    }

    static long run(ActorSystem system, Params p, HashMap<Integer, Integer> map) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef server = run.spawn(system, Props.create(Server.class, () -> new Server(run, p, map)));
        AtomicInteger running = new AtomicInteger(p.clients());
        AtomicLong checksum = new AtomicLong();
        for (int c = 0; c < p.clients(); c++) {
            Requests requests = new Requests(c, p);
            ActorRef client = run.spawn(system,
                    Props.create(Client.class, () -> new Client(run, server, requests, running, checksum)));
            client.tell(new Start(), ActorRef.noSender());
        }
        return run.await();
    }

    static final class Server extends PekkoRun.Counted {
        private final HashMap<Integer, Integer> map;
        private final Params p;
        private long served;

        Server(PekkoRun run, Params p, HashMap<Integer, Integer> map) {
            super(run);
            this.p = p;
            this.map = p.serverMap(map);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Read.class, r -> getSender().tell(
                            new Result(p.reply(map != null ? map.get(r.key()) : increment(r.key()))), getSelf()))
                    .match(Write.class, w -> {
                        if (map != null) {
                            map.put(w.key(), w.value());
                        } else {
                            increment(w.key());
                        }
                        getSender().tell(new Result(p.reply(w.value())), getSelf());
                    })
                    .match(Stop.class, s -> getContext().stop(getSelf()))
                    .build();
        }

        private int increment(int key) {
            served++;
            return HotServer.valueOf(key);
        }
    }

    static final class Client extends PekkoRun.Counted {
        private final ActorRef server;
        private final Requests requests;
        private final AtomicInteger running;
        private final AtomicLong total;
        private long checksum;

        Client(PekkoRun run, ActorRef server, Requests requests, AtomicInteger running, AtomicLong total) {
            super(run);
            this.server = server;
            this.requests = requests;
            this.running = running;
            this.total = total;
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
                server.tell(requests.write ? new Write(key, HotServer.valueOf(key)) : new Read(key), getSelf());
                return;
            }
            total.addAndGet(checksum);
            if (running.decrementAndGet() == 0) {        // every other client has added its checksum
                server.tell(new Stop(), getSelf());
                run.complete(total.get());
            }
            getContext().stop(getSelf());
        }
    }
}
