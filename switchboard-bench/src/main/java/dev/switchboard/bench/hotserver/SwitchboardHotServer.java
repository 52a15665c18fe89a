package dev.switchboard.bench.hotserver;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.hotserver.HotServer.Params;
import dev.switchboard.bench.hotserver.HotServer.Requests;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.ReadersWriterMonitor;
import dev.switchboard.task.TaskRuntime;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The hot server on Switchboard: a plain actor, or the same actor under a readers-writer monitor. */
final class SwitchboardHotServer {
    sealed interface Request permits Read, Write {
        ActorRef<Reply> client();
    }

    record Read(ActorRef<Reply> client, int key) implements Request {
    }

    record Write(ActorRef<Reply> client, int key, int value) implements Request {
    }

    sealed interface Reply permits Start, Result {
    }

    record Start() implements Reply {
    }

    record Result(int value) implements Reply {
    }

    static final Category READS = Category.of("read", Read.class);
    static final Category WRITES = Category.of("write", Write.class);

    private SwitchboardHotServer() {
    }

    static long run(TaskRuntime runtime, Params p, HotServer.Variant variant, HashMap<Integer, Integer> map) {
        Client[] clients = new Client[p.clients()];
        runtime.finish(() -> {
            Server server = new Server(map, p, p.clients() * p.requestsPerClient());
            if (variant == HotServer.Variant.READERS_WRITER) {
                new ReadersWriterMonitor(READS, WRITES).bind(server);
            }
            ActorRef<Request> serverRef = server.start();
            for (int c = 0; c < clients.length; c++) {
                clients[c] = new Client(serverRef, new Requests(c, p));
                clients[c].start().send(new Start());
            }
        });
        long sum = 0;
        for (Client c : clients) {
            sum += c.checksum;
        }
        return sum;
    }

    /** Serves reads and writes; exits after the last request. */
    static final class Server extends Actor<Request> {
        private final HashMap<Integer, Integer> map;
        private final Params p;
        private final AtomicInteger left;
        private long served;

        Server(HashMap<Integer, Integer> map, Params p, int requests) {
            this.map = map;
            this.p = p;
            this.left = new AtomicInteger(requests);
        }

        @Override
        protected void process(Request request) {
            int value = switch (request) {
                case Read r -> map != null ? map.get(r.key()) : increment(r.key());
                case Write w -> {
                    if (map != null) {
                        map.put(w.key(), w.value());
                    } else {
                        increment(w.key());
                    }
                    yield w.value();
                }
            };
            request.client().send(new Result(p.reply(value)));
            if (left.decrementAndGet() == 0) {
                exit();
            }
        }

        private int increment(int key) {
            served++;
            return HotServer.valueOf(key);
        }
    }

    /** Sends a request, waits for its reply, sends the next. */
    static final class Client extends Actor<Reply> {
        private final ActorRef<Request> server;
        private final Requests requests;
        long checksum;

        Client(ActorRef<Request> server, Requests requests) {
            this.server = server;
            this.requests = requests;
        }

        @Override
        protected void process(Reply reply) {
            if (reply instanceof Result r) {
                checksum += 1 + r.value();
            }
            if (requests.next()) {
                int key = requests.key;
                server.send(requests.write ? new Write(self(), key, HotServer.valueOf(key)) : new Read(self(), key));
            } else {
                exit();
            }
        }
    }
}
