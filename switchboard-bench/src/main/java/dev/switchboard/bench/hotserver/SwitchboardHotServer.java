package dev.switchboard.bench.hotserver;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.bench.hotserver.HotServer.Params;
import dev.switchboard.bench.hotserver.HotServer.Requests;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.ReadersWriterMonitor;
import dev.switchboard.task.TaskRuntime;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hot server on Switchboard: a plain actor, or the same actor under a readers-writer monitor; its clients send
 * their {@code ActorRef} in the request and take the reply as a message, or (the {@code AWAIT_REPLY} variant) ask
 * with {@code awaitReply}, the server answering the request's {@code ReplyTo}.
 */
final class SwitchboardHotServer {
    sealed interface Request permits Read, Write, Asked, Stop {
    }

    record Read(ActorRef<Reply> client, int key) implements Request {
    }

    record Write(ActorRef<Reply> client, int key, int value) implements Request {
    }

    /** A read, or a write of the key's value, asked with {@code awaitReply}: the answer goes to {@code replyTo}. */
    record Asked(int key, boolean write, ReplyTo<Integer> replyTo) implements Request {
    }

    /** From the last client to finish: the server exits (as on Pekko's side). */
    record Stop() implements Request {
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
        AtomicInteger running = new AtomicInteger(p.clients());
        runtime.finish(() -> {
            Server server = new Server(map, p);
            if (variant == HotServer.Variant.READERS_WRITER) {
                new ReadersWriterMonitor(READS, WRITES).bind(server);
            }
            ActorRef<Request> serverRef = server.start();
            for (int c = 0; c < clients.length; c++) {
                clients[c] = variant == HotServer.Variant.AWAIT_REPLY
                        ? new AskingClient(serverRef, new Requests(c, p), running)
                        : new Client(serverRef, new Requests(c, p), running);
                clients[c].start().send(new Start());
            }
        });
        long sum = 0;
        for (Client c : clients) {
            sum += c.checksum;
        }
        return sum;
    }

    /** Serves reads and writes; exits when the last client says it is done. */
    static final class Server extends Actor<Request> {
        private final HashMap<Integer, Integer> map;
        private final Params p;
        private long served;

        Server(HashMap<Integer, Integer> map, Params p) {
            this.map = p.serverMap(map);
            this.p = p;
        }

        @Override
        protected void process(Request request) {
            switch (request) {
                case Read r -> r.client().send(new Result(p.reply(read(r.key()))));
                case Write w -> w.client().send(new Result(p.reply(write(w.key(), w.value()))));
                case Asked a -> a.replyTo().reply(p.reply(a.write() ? write(a.key(), HotServer.valueOf(a.key()))
                        : read(a.key())));
                case Stop s -> exit();
            }
        }

        private int read(int key) {
            return map != null ? map.get(key) : increment(key);
        }

        private int write(int key, int value) {
            if (map != null) {
                map.put(key, value);
            } else {
                increment(key);
            }
            return value;
        }

        private int increment(int key) {
            served++;
            return HotServer.valueOf(key);
        }
    }

    /** Sends a request, waits for its reply, sends the next; the last client to finish stops the server. */
    static class Client extends Actor<Reply> {
        final ActorRef<Request> server;
        final Requests requests;
        private final AtomicInteger running;
        long checksum;

        Client(ActorRef<Request> server, Requests requests, AtomicInteger running) {
            this.server = server;
            this.requests = requests;
            this.running = running;
        }

        /** This client has sent its last request and had its reply. */
        final void done() {
            if (running.decrementAndGet() == 0) {
                server.send(new Stop());
            }
            exit();
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
                done();
            }
        }
    }

    /**
     * The client as the paper's request-reply is written with {@code awaitReply}: started, it asks the server and
     * handles the answer in the handler, which asks again; no reply message, no message after the start.
     */
    static final class AskingClient extends Client {
        AskingClient(ActorRef<Request> server, Requests requests, AtomicInteger running) {
            super(server, requests, running);
        }

        @Override
        protected void process(Reply start) {
            askNext();
        }

        private void askNext() {
            if (!requests.next()) {
                done();
                return;
            }
            int key = requests.key;
            boolean write = requests.write;
            awaitReply(server, replyTo -> new Asked(key, write, replyTo), (Integer value) -> {
                checksum += 1 + value;
                askNext();
            });
        }
    }
}
