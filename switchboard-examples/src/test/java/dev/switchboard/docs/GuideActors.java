package dev.switchboard.docs;

import static dev.switchboard.Switchboard.*;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.BoundedMailbox;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.Router;
import dev.switchboard.actor.SupervisorStrategy;
import dev.switchboard.actor.Terminated;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/** The scaffold of the guide's section "Actors"; GuideActorsTest runs its examples. */
class GuideActors {
    final Queue<Object> seen = new ConcurrentLinkedQueue<>();

    // tag::counter[]
    sealed interface Cmd permits Add, Get, Stop {}
    record Add(int n) implements Cmd {}
    record Get(ReplyTo<Integer> replyTo) implements Cmd {}   // a request: its answer goes to the ReplyTo
    record Stop() implements Cmd {}

    final class Counter extends Actor<Cmd> {
        private int total;
        protected void process(Cmd cmd) {
            switch (cmd) {
                case Add a -> total += a.n();
                case Get g -> g.replyTo().reply(total);
                case Stop s -> exit();
            }
        }
    }
    // end::counter[]

    CompletableFuture<Integer> counter() {
        Queue<CompletableFuture<Integer>> totals = new ConcurrentLinkedQueue<>();
        // tag::counter-use[]
        finish(() -> {
            ActorRef<Cmd> counter = new Counter().start("counter");   // the reference senders hold
            counter.send(new Add(2));
            CompletableFuture<Integer> total = counter.ask(Get::new, Duration.ofSeconds(1));   // 2, once answered
        // end::counter-use[]
            totals.add(total);
        // tag::counter-use[]
            counter.send(new Stop());
        });
        // end::counter-use[]
        return totals.remove();
    }

    /** Forwards each message to the next filter, or keeps it if it is the last; then exits. */
    final class Filter extends Actor<String> {
        private final ActorRef<String> next;

        Filter(ActorRef<String> next) {
            this.next = next;
        }

        @Override
        protected void process(String text) {
            if (next != null) {
                next.send(text + ">");
            } else {
                seen.add(text);
            }
            exit();
        }
    }

    void wired() {
        // tag::wire[]
        Filter sink = new Filter(null);               // wire first: ref() is the reference before start()
        Filter middle = new Filter(sink.ref());
        Filter source = new Filter(middle.ref());
        source.ref().send("hello");                   // waits in the mailbox until source starts
        finish(() -> {
            sink.start();                             // in any order: what is sent meanwhile waits
            middle.start();
            source.start();
        });
        // end::wire[]
    }

    sealed interface StageMsg permits Item, End {}

    record Item(String text) implements StageMsg {}

    record End() implements StageMsg {}

    record Opened(ActorRef<StageMsg> stage) {}

    ActorRef<Opened> log;
    ActorRef<StageMsg> next;

    // tag::stage[]
    final class Stage extends Actor<StageMsg> {
        protected void onStart() { log.send(new Opened(self())); }   // before the first message
        protected void process(StageMsg m) { if (m instanceof End) exit(); else next.send(m); }
        protected void onExit() { next.send(new End()); }            // after it terminated, however it ended
    }
    // end::stage[]

    sealed interface Msg permits Begin, ChildDone, ChildFailed {}

    record Begin(boolean childFails) implements Msg {}

    record ChildDone() implements Msg {}

    record ChildFailed(Exception failure) implements Msg {}

    final class Child extends Actor<String> {
        private final ActorRef<Msg> parent;
        private final boolean fails;

        Child(ActorRef<Msg> parent, boolean fails) {
            this.parent = parent;
            this.fails = fails;
        }

        @Override
        protected void onStart() {
            if (fails) {
                throw new IllegalStateException("the child failed");
            }
            exit();
        }

        @Override
        protected void process(String message) {
        }
    }

    final class Parent extends Actor<Msg> {
        @Override
        protected void process(Msg m) {
            switch (m) {
                case Begin b -> {
                    boolean fails = b.childFails();
                    // tag::child-finish[]
                    ActorRef<Msg> parent = self();
                    async(() -> {                                       // a task of the parent: the child's finish waits here
                        try {
                            finish(() -> new Child(parent, fails).start());
                            parent.send(new ChildDone());
                        } catch (Exception failed) {                    // the child's failure, kept from the parent's finish
                            parent.send(new ChildFailed(failed));       // the parent decides: start a new child, give up
                        }
                    });
                    // end::child-finish[]
                }
                case ChildDone d -> {
                    seen.add("done");
                    exit();
                }
                case ChildFailed f -> {
                    seen.add("failed: " + f.failure().getMessage());
                    exit();
                }
            }
        }
    }

    record Job(int n) {}

    /** Does one job, or fails on a negative one, and exits. */
    final class Worker extends Actor<Job> {
        @Override
        protected void process(Job job) {
            if (job.n() < 0) {
                throw new IllegalArgumentException("job " + job.n());
            }
            exit();
        }
    }

    void log(Terminated end) {
        seen.add(end.actor().name() + " " + end.reason());
    }

    sealed interface Ctl permits WorkerGone {}

    // tag::watch[]
    record WorkerGone(Terminated end) implements Ctl {}

    final class Foreman extends Actor<Ctl> {
        private final List<ActorRef<Job>> workers;
        private int alive;
        Foreman(List<ActorRef<Job>> workers) { this.workers = workers; this.alive = workers.size(); }
        protected void onStart() { workers.forEach(w -> watch(w, WorkerGone::new)); }   // their ends, as messages
        protected void process(Ctl m) {
            switch (m) {
                case WorkerGone g -> {
                    if (g.end().reason() == Terminated.Reason.FAILED) log(g.end());     // how it ended, and why
                    if (--alive == 0) exit();
                }
            }
        }
    }
    // end::watch[]

    CompletableFuture<Terminated> watched(List<ActorRef<Job>> workers) {
        CompletableFuture<Terminated> last = new CompletableFuture<>();
        ActorRef<Job> worker = workers.get(0);
        // tag::when-terminated[]
        worker.whenTerminated().thenAccept(end -> System.out.println(end));   // from code outside any actor
        // end::when-terminated[]
        worker.whenTerminated().thenAccept(last::complete);
        return last;
    }

    private int loads;

    /** The cache's source: its second load fails. */
    Map<String, String> load() {
        if (++loads == 2) {
            seen.add("load failed");
            throw new IllegalStateException("the store is unreachable");
        }
        seen.add("loaded");
        return Map.of("a", "A");
    }

    // tag::supervise[]
    sealed interface Query permits Lookup, Reload {}
    record Lookup(String key, ReplyTo<String> replyTo) implements Query {}
    record Reload() implements Query {}

    final class Cache extends Actor<Query> {
        private Map<String, String> entries;
        protected void onStart() { entries = load(); }                 // a restart's onRestart runs it again
        protected void process(Query q) {
            switch (q) {
                case Lookup l -> l.replyTo().reply(entries.getOrDefault(l.key(), "?"));
                case Reload r -> entries = load();                         // may throw
            }
        }
    }

    final class Service extends Actor<Query> {
        private ActorRef<Query> cache;
        protected void onStart() {
            cache = startChild(Cache::new, SupervisorStrategy.restart()    // the same reference after a restart
                    .withLimit(5, Duration.ofMinutes(1))                  // a 6th restart within a minute: give up
                    .withBackoff(Duration.ofMillis(10), Duration.ofSeconds(10), 0.2));
        }
        protected void process(Query q) { cache.send(q); }
    }
    // end::supervise[]

    record Quote(String symbol, double price) {}

    final class Pricer extends Actor<Quote> {
        protected void process(Quote q) { seen.add(q.symbol()); }
    }

    List<ActorRef<Quote>> routers(List<ActorRef<Quote>> shardRefs) {
        // tag::routers[]
        ActorRef<Job> workers = Router.pool(8, () -> new Worker()).roundRobin().start("workers");
        ActorRef<Quote> shards = Router.group(shardRefs).consistentHashing(Quote::symbol).start("shards");
        // end::routers[]
        workers.stop();
        return List.of(shards);
    }

    void stops(ActorRef<Job> worker, ActorRef<Job> other) {
        // tag::stop[]
        worker.stop();      // after the messages already queued (Pekko's PoisonPill)
        other.stopNow();    // after the message it is processing; the queued ones become dead letters
        // end::stop[]
    }

    record Line(String text) {}

    void write(Line line) {
        seen.add(line.text());
    }

    // tag::bounded[]
    final class Logger extends Actor<Line> {
        Logger() { super(BoundedMailbox.dropping(10_000)); }   // excess lines: dead letters (MAILBOX_FULL)
        protected void process(Line line) { write(line); }
    }
    // end::bounded[]

    final class Sink extends Actor<Line> {
        Sink(BoundedMailbox bound) {
            super(bound);
        }

        @Override
        protected void process(Line line) {
            write(line);
        }
    }

    void sinks() {
        // tag::bounded-sinks[]
        new Sink(BoundedMailbox.failing(1_000));                  // a send to a full mailbox throws MailboxFullException
        new Sink(BoundedMailbox.waiting(1_000, Duration.ofSeconds(5)));   // a sender outside the runtime waits for room
        // end::bounded-sinks[]
    }
}
