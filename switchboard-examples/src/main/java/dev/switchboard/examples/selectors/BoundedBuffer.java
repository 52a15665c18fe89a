package dev.switchboard.examples.selectors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.examples.Example;
import java.io.PrintStream;
import java.util.ArrayDeque;

/**
 * Paper 000 §7 (Fig. 19): producer-consumer with a bounded buffer. The buffer is a selector with a PRODUCER and a
 * CONSUMER mailbox: it takes no data while full and serves no consumer while empty, so producers and consumers
 * that must wait simply have their messages wait — no queues of waiting producers and consumers to manage.
 * Two versions: imperative (enable/disable as the buffer fills and empties) and declarative (two guards).
 */
public final class BoundedBuffer implements Example {
    enum Mailbox { PRODUCER, CONSUMER }

    sealed interface BufferMsg permits Data, Take, ProducerDone {
    }

    record Data(int value, ActorRef<Produce> producer) implements BufferMsg {
    }

    record Take(ActorRef<Integer> consumer) implements BufferMsg {
    }

    record ProducerDone() implements BufferMsg {
    }

    record Produce() {
    }

    /** The state and processing both versions share. */
    abstract static class Buffer extends Selector<BufferMsg> {
        final ArrayDeque<Integer> items = new ArrayDeque<>();
        final int capacity;
        private final int producers;
        private int producersDone;
        int maxFill;

        Buffer(int capacity, int producers) {
            super(Mailbox.class);
            this.capacity = capacity;
            this.producers = producers;
        }

        @Override
        protected void process(BufferMsg msg) {
            switch (msg) {
                case Data d -> {
                    items.add(d.value());
                    maxFill = Math.max(maxFill, items.size());
                    d.producer().send(new Produce());            // ask for the next item
                }
                case Take t -> t.consumer().send(items.poll());
                case ProducerDone p -> producersDone++;
            }
            afterProcessing();
            if (producersDone == producers && items.isEmpty()) {
                exit();                                          // consumers still waiting get nothing more
            }
        }

        abstract void afterProcessing();
    }

    /** Imperative: the processing enables and disables the mailboxes. */
    static final class ImperativeBuffer extends Buffer {
        ImperativeBuffer(int capacity, int producers) {
            super(capacity, producers);
            disable(Mailbox.CONSUMER);                           // empty at first
        }

        @Override
        void afterProcessing() {
            if (items.size() == capacity) {
                disable(Mailbox.PRODUCER);
            } else {
                enable(Mailbox.PRODUCER);
            }
            if (items.isEmpty()) {
                disable(Mailbox.CONSUMER);
            } else {
                enable(Mailbox.CONSUMER);
            }
        }
    }

    /** Declarative: two guards say when each mailbox may be served (Fig. 19). */
    static final class DeclarativeBuffer extends Buffer {
        DeclarativeBuffer(int capacity, int producers) {
            super(capacity, producers);
            guard(Mailbox.PRODUCER, () -> items.size() < this.capacity);   // no data while full
            guard(Mailbox.CONSUMER, () -> !items.isEmpty());               // no consumer while empty
        }

        @Override
        void afterProcessing() {
        }
    }

    static final class Producer extends Actor<Produce> {
        private final SelectorRef<BufferMsg> buffer;
        private int next;
        private final int count;
        private final int base;

        Producer(SelectorRef<BufferMsg> buffer, int base, int count) {
            this.buffer = buffer;
            this.base = base;
            this.count = count;
        }

        @Override
        protected void process(Produce p) {
            if (next < count) {
                buffer.send(Mailbox.PRODUCER, new Data(base + next++, this));
            } else {
                buffer.send(Mailbox.PRODUCER, new ProducerDone());
                exit();
            }
        }
    }

    static final class Consumer extends Actor<Integer> {
        private final SelectorRef<BufferMsg> buffer;
        private final int count;
        private int taken;
        long sum;

        Consumer(SelectorRef<BufferMsg> buffer, int count) {
            this.buffer = buffer;
            this.count = count;
        }

        @Override
        protected void process(Integer item) {
            if (item >= 0) {
                sum += item;
                taken++;
            }
            if (taken < count) {
                buffer.send(Mailbox.CONSUMER, new Take(this));
            } else {
                exit();
            }
        }
    }

    /** Returns {max fill, total consumed}. */
    static long[] run(boolean declarative) {
        int capacity = 5;
        int producers = 3;
        int perProducer = 100;
        int consumers = 3;
        Buffer buffer = declarative ? new DeclarativeBuffer(capacity, producers)
                : new ImperativeBuffer(capacity, producers);
        Consumer[] cs = new Consumer[consumers];
        finish(() -> {
            buffer.start();
            for (int p = 0; p < producers; p++) {
                Producer producer = new Producer(buffer, p * perProducer, perProducer);
                producer.start();
                producer.send(new Produce());
            }
            for (int c = 0; c < consumers; c++) {
                cs[c] = new Consumer(buffer, producers * perProducer / consumers);
                cs[c].start();
                cs[c].send(-1);                                  // start by asking for an item
            }
        });
        long sum = 0;
        for (Consumer c : cs) {
            sum += c.sum;
        }
        return new long[] {buffer.maxFill, sum};
    }

    @Override
    public void run(PrintStream out) {
        for (boolean declarative : new boolean[] {false, true}) {
            long[] r = run(declarative);
            out.printf("%s buffer (capacity 5): fill never above %d; consumers received items summing to %d"
                    + " (expected %d)%n", declarative ? "declarative" : "imperative", r[0], r[1], 299 * 300 / 2);
        }
    }

    public static void main(String[] args) {
        new BoundedBuffer().run(System.out);
    }
}
