package dev.switchboard.bench.boundedbuffer;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayDeque;

/**
 * The bounded buffer on Switchboard: the manager is a selector with a PRODUCER and a CONSUMER mailbox, so it
 * needs no queues of waiting producers or consumers: their messages wait in the closed mailbox. Two managers,
 * one that opens and closes the mailboxes itself and one that registers guards ([Selectors] §7, Fig. 19).
 */
final class SwitchboardBoundedBuffer {
    sealed interface Msg permits Start, Produce, Data, Available, ProducerExit, ConsumerExit, Totals {
    }

    record Start() implements Msg {
    }

    record Produce() implements Msg {
    }

    record Data(long value, ActorRef<Msg> producer) implements Msg {
    }

    record Available(ActorRef<Msg> consumer) implements Msg {
    }

    record ProducerExit() implements Msg {
    }

    record ConsumerExit() implements Msg {
    }

    /** A consumer's account of what it consumed, sent when it exits. */
    record Totals(long count, long sum, long work) implements Msg {
    }

    enum Box { PRODUCER, CONSUMER }

    private static final Produce PRODUCE = new Produce();
    private static final ConsumerExit CONSUMER_EXIT = new ConsumerExit();
    private static final ProducerExit PRODUCER_EXIT = new ProducerExit();

    private SwitchboardBoundedBuffer() {
    }

    static long run(TaskRuntime runtime, BoundedBufferBenchmark b, boolean declarative) {
        Manager manager = declarative ? new DeclarativeManager(b) : new ImperativeManager(b);
        runtime.finish(() -> manager.start().send(Box.PRODUCER, new Start()));
        return BoundedBufferBenchmark.checksum(manager.consumed, manager.sum);
    }

    /** What both managers share: the actors, the buffer, and counting who has finished. */
    abstract static class Manager extends Selector<Msg, Box> {
        final ArrayDeque<Data> buffer = new ArrayDeque<>();
        final int threshold;
        final long total;
        long delivered;
        private final Producer[] producers;
        private final Consumer[] consumers;
        private int producersDone;
        private int consumersDone;
        long consumed;
        long sum;
        long work;

        Manager(BoundedBufferBenchmark b) {
            super(Box.class);
            threshold = b.threshold();
            total = b.totalItems();
            producers = new Producer[b.producers];
            for (int i = 0; i < producers.length; i++) {
                producers[i] = new Producer(self(), BoundedBufferBenchmark.firstState(i), b.itemsPerProducer,
                        b.produceCost);
            }
            consumers = new Consumer[b.consumers];
            for (int i = 0; i < consumers.length; i++) {
                consumers[i] = new Consumer(self(), b.consumeCost);
            }
        }

        /** Starts the actors; every consumer starts out asking for an item, as if it had sent Available. */
        final void startAll() {
            for (Consumer c : consumers) {
                c.start();
                self().send(Box.CONSUMER, c.available);
            }
            for (Producer p : producers) {
                p.start().send(PRODUCE);
            }
        }

        final void producerDone() {
            producersDone++;
            exitIfDone();
        }

        final void consumerDone(Totals t) {
            consumed += t.count();
            sum += t.sum();
            work ^= t.work();
            consumersDone++;
            exitIfDone();
        }

        private void exitIfDone() {
            if (producersDone == producers.length && consumersDone == consumers.length) {
                exit();
            }
        }
    }

    /** Opens and closes its mailboxes with enable/disable as the buffer fills and empties. */
    static final class ImperativeManager extends Manager {
        ImperativeManager(BoundedBufferBenchmark b) {
            super(b);
            disable(Box.CONSUMER);                             // the buffer starts empty
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Start s -> startAll();
                // the mailboxes change state only when the buffer stops being empty or full
                case Data d -> {
                    buffer.add(d);
                    d.producer().send(PRODUCE);
                    if (buffer.size() == 1) {
                        enable(Box.CONSUMER);
                    }
                    if (buffer.size() == threshold) {
                        disable(Box.PRODUCER);
                    }
                }
                case Available a -> {
                    Data d = buffer.poll();
                    if (d == null) {                           // open while empty only once all items are out
                        a.consumer().send(CONSUMER_EXIT);
                        return;
                    }
                    a.consumer().send(d);
                    delivered++;
                    if (buffer.size() == threshold - 1) {
                        enable(Box.PRODUCER);
                    }
                    if (buffer.isEmpty() && delivered < total) {
                        disable(Box.CONSUMER);
                    }
                }
                case ProducerExit p -> producerDone();
                case Totals t -> consumerDone(t);
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    /** The same manager with declarative guards: processing only moves items (paper Fig. 19). */
    static final class DeclarativeManager extends Manager {
        DeclarativeManager(BoundedBufferBenchmark b) {
            super(b);
            guard(Box.PRODUCER, () -> buffer.size() < threshold);
            // once every item is out, consumers' requests are answered with an exit
            guard(Box.CONSUMER, () -> !buffer.isEmpty() || delivered == total);
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Start s -> startAll();
                case Data d -> {
                    buffer.add(d);
                    d.producer().send(PRODUCE);
                }
                case Available a -> {
                    Data d = buffer.poll();
                    if (d == null) {
                        a.consumer().send(CONSUMER_EXIT);
                    } else {
                        a.consumer().send(d);
                        delivered++;
                    }
                }
                case ProducerExit p -> producerDone();
                case Totals t -> consumerDone(t);
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Producer extends Actor<Msg> {
        private final SelectorRef<Msg, Box> manager;
        private final int items;
        private final int cost;
        private long state;
        private int produced;

        Producer(SelectorRef<Msg, Box> manager, long firstState, int items, int cost) {
            this.manager = manager;
            this.state = firstState;
            this.items = items;
            this.cost = cost;
        }

        @Override
        protected void process(Msg msg) {
            if (!(msg instanceof Produce)) {
                throw new IllegalStateException("unexpected " + msg);
            }
            if (produced == items) {
                manager.send(Box.PRODUCER, PRODUCER_EXIT);
                exit();
                return;
            }
            state = BoundedBufferBenchmark.work(state, cost);
            produced++;
            manager.send(Box.PRODUCER, new Data(state, self()));
        }
    }

    static final class Consumer extends Actor<Msg> {
        private final SelectorRef<Msg, Box> manager;
        private final int cost;
        final Available available = new Available(self());
        private long count;
        private long sum;
        private long work;

        Consumer(SelectorRef<Msg, Box> manager, int cost) {
            this.manager = manager;
            this.cost = cost;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Data d -> {
                    work = BoundedBufferBenchmark.work(work + d.value(), cost);
                    count++;
                    sum += d.value();
                    manager.send(Box.CONSUMER, available);
                }
                case ConsumerExit e -> {
                    manager.send(Box.CONSUMER, new Totals(count, sum, work));
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
