package dev.switchboard.soak;

import dev.switchboard.actor.SupervisorStrategy;
import dev.switchboard.actor.Terminated;
import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.BoundedMailbox;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.StatelessActor;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.MutexMonitor;
import dev.switchboard.monitor.ReadersWriterMonitor;
import dev.switchboard.soak.Round.Msg;
import dev.switchboard.soak.Round.Nudge;
import dev.switchboard.soak.Round.Seq;
import dev.switchboard.soak.Round.Stop;
import dev.switchboard.soak.Round.Token;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kinds of actor a soak round starts: plain actors (some with bounded mailboxes that fail, drop or wait),
 * stateless actors, two-mailbox selectors that disable a mailbox and enable it again, and actors under a mutex or a
 * readers-writer monitor that check the monitor's exclusion.
 */
final class SoakActors {
    /** Tokens with an even id are reads under a readers-writer monitor; every other message is a write. */
    static final Category READS = Category.of("read", m -> m instanceof Token t && (t.id() & 1) == 0);
    static final Category WRITES = Category.of("write", m -> !READS.contains(m));

    private final Round round;

    SoakActors(Round round) {
        this.round = round;
    }

    /** What {@link Round#onToken} needs of an actor. */
    interface Member {
        /** Exits (on a token that says so). */
        void leave();
    }

    /** An actor of the round: the reference senders use, and the actor, whose counts the round checks. */
    record Started(ActorRef<Msg> ref, ActorCore<Msg> actor) {
        static Started start(ActorCore<Msg> actor) {
            return new Started(actor.start(), actor);
        }
    }

    /**
     * Starts the {@code i}-th actor of the round, of a kind drawn from {@code r}; a round that closes its runtime
     * mid-run supervises nothing (a parent the close ends before its first message never starts its child, whose
     * mailbox would then hold messages no runtime counts).
     */
    Started startOne(Round.Mix r, int i, boolean closes) {
        round.counters.actors.increment();
        int kind = r.below(12);
        if (kind >= 10 && !closes) {
            return supervised(kind == 10 ? SupervisorStrategy.restart() : SupervisorStrategy.resume());
        }
        return Started.start(switch (kind) {
            case 0, 1, 2, 3 -> {
                BoundedMailbox bound = bound(r);
                yield bound == null ? new Plain(true) : new Plain(bound);
            }
            case 4, 5 -> {
                BoundedMailbox bound = bound(r);
                yield bound == null ? new Stateless() : new Stateless(bound);
            }
            case 6, 7 -> new TwoMailboxes();
            case 8 -> new MutexMonitor().bind(new Plain(true));
            default -> {
                Plain p = new Plain(false);
                new ReadersWriterMonitor(READS, WRITES).bind(p);
                yield p;
            }
        });
    }

    /**
     * A plain actor supervised by a parent that exits once it has ended: an injected exception restarts or resumes
     * it (the token a {@code FAILED_PROCESSING} dead letter), an injected error escalates to the parent, whose
     * finish reports it. The child is built first, so that its reference takes messages at once; the factory hands
     * it to {@code startChild} and builds a fresh one for every restart.
     */
    private Started supervised(SupervisorStrategy strategy) {
        round.counters.actors.increment();
        Plain first = new Plain(true);
        Supplier<Plain> factory = new Supplier<>() {
            private boolean handedOut;

            @Override
            public Plain get() {
                if (!handedOut) {
                    handedOut = true;
                    return first;
                }
                round.counters.restarts.increment();
                return new Plain(true);
            }
        };
        new Supervisor(factory, strategy).start();
        return new Started(first.ref(), first);
    }

    /** Starts its one child in its first message, and exits when the child has ended. */
    static final class Supervisor extends Actor<Terminated> {
        private final Supplier<Plain> factory;
        private final SupervisorStrategy strategy;

        Supervisor(Supplier<Plain> factory, SupervisorStrategy strategy) {
            this.factory = factory;
            this.strategy = strategy;
        }

        @Override
        protected void onStart() {
            watch(startChild(factory, strategy), end -> end);
        }

        @Override
        protected void process(Terminated childEnded) {
            exit();
        }
    }

    private static BoundedMailbox bound(Round.Mix r) {
        int capacity = 2 + r.below(63);
        return switch (r.below(8)) {
            case 0 -> BoundedMailbox.failing(capacity);
            case 1 -> BoundedMailbox.dropping(capacity);
            case 2 -> BoundedMailbox.waiting(capacity, Duration.ofSeconds(30));
            default -> null;
        };
    }

    /** Messages from one sender (the round's body) arrive in the order sent. */
    private final class Order {
        private int last = -1;

        void check(Object actor, Seq s) {
            if (s.n() <= last) {
                round.discrepancy(actor + " received Seq " + s.n() + " after Seq " + last);
            }
            last = s.n();
        }
    }

    /**
     * A plain actor, alone or under a monitor: it checks that no write ran beside anything and no read beside a
     * write (a plain actor and a mutex run one letter at a time; a readers-writer monitor runs reads together).
     */
    final class Plain extends Actor<Msg> implements Member {
        private final Order order = new Order();
        private final boolean checkOrder;
        private final AtomicInteger readers = new AtomicInteger();
        private final AtomicInteger writers = new AtomicInteger();

        Plain(boolean checkOrder) {
            this.checkOrder = checkOrder;
        }

        Plain(BoundedMailbox bound) {
            super(bound);
            this.checkOrder = true;
        }

        @Override
        protected void process(Msg m) {
            round.processing(this);
            boolean read = READS.contains(m);
            AtomicInteger mine = read ? readers : writers;
            mine.incrementAndGet();                 // every letter counts itself; a mutex admits one at a time
            try {
                if (read ? writers.get() != 0 : readers.get() + writers.get() != 1) {
                    round.discrepancy(this + " ran a " + (read ? "read" : "write") + " beside "
                            + readers.get() + " readers and " + writers.get() + " writers");
                }
                handle(m);
            } finally {
                mine.decrementAndGet();
            }
        }

        private void handle(Msg m) {
            switch (m) {
                case Stop s -> exit();
                case Seq s -> {
                    if (checkOrder) {
                        order.check(this, s);
                    }
                }
                case Nudge n -> { }
                case Token t -> round.onToken(this, t);
                case Round.Query q -> round.onQuery(this, q);
            }
        }

        @Override
        public void leave() {
            exit();
        }
    }

    /** Processes its messages in parallel. */
    final class Stateless extends StatelessActor<Msg> implements Member {
        Stateless() {
        }

        Stateless(BoundedMailbox bound) {
            super(bound);
        }

        @Override
        protected void process(Msg m) {
            round.processing(this);
            switch (m) {
                case Stop s -> exit();
                case Token t -> round.onToken(this, t);
                case Seq s -> { }
                case Nudge n -> { }
                case Round.Query q -> round.onQuery(this, q);
            }
        }

        @Override
        public void leave() {
            exit();
        }
    }

    /**
     * Two mailboxes; half the tokens go to the second, which the selector disables after each of them, sending
     * itself a Nudge on the first mailbox that enables it again (so it never stalls with letters held).
     */
    final class TwoMailboxes extends Selector<Msg, Selector.Numbered> implements Member {
        private final Order order = new Order();

        TwoMailboxes() {
            super(2);
        }

        @Override
        protected int route(Msg m) {
            return m instanceof Token t && ((t.id() + t.hops()) & 1) == 1 ? 1 : 0;
        }

        @Override
        protected void process(Msg m) {
            round.processing(this);
            switch (m) {
                case Stop s -> exit();
                case Nudge n -> enable(1);
                case Seq s -> order.check(this, s);
                case Round.Query q -> round.onQuery(this, q);
                case Token t -> {
                    if (route(t) == 1) {
                        disable(1);
                        round.send(self(), new Nudge());
                    }
                    round.onToken(this, t);
                }
            }
        }

        @Override
        public void leave() {
            exit();
        }
    }
}
