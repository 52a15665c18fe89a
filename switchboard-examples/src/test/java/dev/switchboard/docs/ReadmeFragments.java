package dev.switchboard.docs;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.ReadersWriterMonitor;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The scaffold of the README's fragments: the selector that waits for its reply, and a monitor's binding. */
class ReadmeFragments {
    sealed interface Msg permits Job, Answer {}

    record Job(int n) implements Msg {}

    record Answer(int n) implements Msg {}

    final ActorRef<Request> server;
    /** The answers used, once three have been. */
    final CompletableFuture<String> threeUsed = new CompletableFuture<>();
    private final StringBuilder used = new StringBuilder();   // the requester's own
    private int usedCount;

    ReadmeFragments(ActorRef<Request> server) {
        this.server = server;
    }

    void use(Answer a) {
        used.append(a.n()).append(' ');
        if (++usedCount == 3) {
            threeUsed.complete(used.toString());
        }
    }

    // tag::requester[]
    enum Box { REGULAR, REPLY }
    record Request(Job job, SelectorRef<Msg, Box> replyTo) {}

    final class Requester extends Selector<Msg, Box> {
        Requester() { super(Box.class); }
        protected void process(Msg m) {
            switch (m) {
                case Job j -> { server.send(new Request(j, self())); disable(Box.REGULAR); }  // reply-blocked
                case Answer a -> { use(a); enable(Box.REGULAR); }
            }
        }
    }
    // end::requester[]

    /** The server of the README: answers each request with its job's number times ten. */
    static final class Server extends Actor<Request> {
        @Override
        protected void process(Request r) {
            int result = r.job().n() * 10;
            // tag::reply[]
            // the server answers into the REPLY mailbox, a name the compiler checks:
            r.replyTo().send(Box.REPLY, new Answer(result));
            // end::reply[]
        }
    }

    sealed interface DictMsg permits Get, Put {}

    record Get(String key, ActorRef<String> replyTo) implements DictMsg {}

    record Put(String key, String value) implements DictMsg {}

    static final class Dictionary extends Actor<DictMsg> {
        final Map<String, String> entries = new HashMap<>();

        @Override
        protected void process(DictMsg m) {
            switch (m) {
                case Get g -> g.replyTo().send(String.valueOf(entries.get(g.key())));
                case Put p -> entries.put(p.key(), p.value());
            }
        }
    }

    static Dictionary monitored() {
        Dictionary dictionary = new Dictionary();
        // tag::monitor[]
        new ReadersWriterMonitor(Category.of("read", Get.class), Category.of("write", Put.class)).bind(dictionary);
        // end::monitor[]
        return dictionary;
    }
}
