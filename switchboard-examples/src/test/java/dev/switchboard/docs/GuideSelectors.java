package dev.switchboard.docs;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** The scaffold of the guide's section on selectors; GuideSelectorsTest runs it. */
class GuideSelectors {
    final Queue<Object> seen = new ConcurrentLinkedQueue<>();

    record Item(int value) {}

    // tag::numbered[]
    // joins: one mailbox per source, numbered like the sources ([Selectors], Fig. 11)
    final class Adder extends Selector<Item, Selector.Numbered> {
        Adder(int sources) { super(sources); }
        protected void process(Item item) { /*...*/ }
    }
    // end::numbered[]

    SelectorRef<Item, Selector.Numbered> adder(int source, Item item) {
        // tag::numbered-use[]
        SelectorRef<Item, Selector.Numbered> adder = new Adder(3).start();
        adder.send(source, item);
        // end::numbered-use[]
        return adder;
    }

    sealed interface Msg permits Job, Answer {}

    record Job(int n) implements Msg {}

    record Answer(int n) implements Msg {}

    ActorRef<Request> server;

    void use(Answer a) {
        seen.add(a.n());
    }

    // tag::named[]
    // request-reply without stashing ([Selectors], Fig. 7)
    enum Box { REGULAR, REPLY }
    record Request(Job job, SelectorRef<Msg, Box> replyTo) {}

    final class Requester extends Selector<Msg, Box> {
        Requester() { super(Box.class); }
        protected Box routeTo(Msg m) { return m instanceof Answer ? Box.REPLY : Box.REGULAR; }   // for send(m)
        protected void process(Msg m) {
            switch (m) {
                case Job j -> { server.send(new Request(j, self())); disable(Box.REGULAR); }   // wait for the reply
                case Answer a -> { use(a); enable(Box.REGULAR); }
            }
        }
    }
    // end::named[]

    static int compute(Job job) {
        return job.n() * 10;
    }

    static final class Server extends Actor<Request> {
        @Override
        protected void process(Request m) {
            switch (m) {
                // tag::named-server[]
                // in the server:
                case Request r -> r.replyTo().send(Box.REPLY, new Answer(compute(r.job())));
                // end::named-server[]
            }
        }
    }
}
