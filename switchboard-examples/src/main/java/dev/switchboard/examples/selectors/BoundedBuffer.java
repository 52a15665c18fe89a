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
 * [Selectors] §7 (Fig. 19): producer-consumer with a bounded buffer. The buffer is a selector with a PRODUCER and a
 * CONSUMER mailbox: it takes no data while full and serves no consumer while empty, so producers and consumers
 * that must wait simply have their messages wait — no queues of waiting producers and consumers to manage.
 * Two versions: imperative (enable/disable as the buffer fills and empties) and declarative (two guards).
 * Producers and consumers name the mailbox they send to ({@code send(Box.PRODUCER, ...)}, checked by the
 * compiler); each starts its exchange with the buffer in {@code onStart()}, and a producer reports the end of its
 * stream in {@code onExit()}.
 */
public final class BoundedBuffer implements Example {
    enum Box { PRODUCER, CONSUMER }

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
    abstract static class Buffer extends Selector<BufferMsg, Box> {
        final ArrayDeque<Integer> items = new ArrayDeque<>();
        final int capacity;
        private final int producers;
        private int producersDone;
        int maxFill;

        Buffer(int capacity, int producers) {
            super(Box.class);
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
            disable(Box.CONSUMER);                               // empty at first
        }

        @Override
        void afterProcessing() {
            if (items.size() == capacity) {
                disable(Box.PRODUCER);
            } else {
                enable(Box.PRODUCER);
            }
            if (items.isEmpty()) {
                disable(Box.CONSUMER);
            } else {
                enable(Box.CONSUMER);
            }
        }
    }

    /** Declarative: two guards say when each mailbox may be served (Fig. 19). */
    static final class DeclarativeBuffer extends Buffer {
        DeclarativeBuffer(int capacity, int producers) {
            super(capacity, producers);
            guard(Box.PRODUCER, () -> items.size() < this.capacity);   // no data while full
            guard(Box.CONSUMER, () -> !items.isEmpty());               // no consumer while empty
        }

        @Override
        void afterProcessing() {
        }
    }

    /** Sends {@code count} items, each once the buffer has taken the one before. */
    static final class Producer extends Actor<Produce> {
        private final SelectorRef<BufferMsg, Box> buffer;
        private int next;
        private final int count;
        private final int base;

        Producer(SelectorRef<BufferMsg, Box> buffer, int base, int count) {
            this.buffer = buffer;
            this.base = base;
            this.count = count;
        }

        @Override
        protected void onStart() {
            produce();                                           // the first item
        }

        @Override
        protected void process(Produce p) {
            produce();                                           // the buffer took the last one
        }

        private void produce() {
            if (next < count) {
                buffer.send(Box.PRODUCER, new Data(base + next++, self()));
            } else {
                exit();
            }
        }

        @Override
        protected void onExit() {
            buffer.send(Box.PRODUCER, new ProducerDone());       // the end of this producer's stream
        }
    }

    /** Takes {@code count} items, asking for the next once it has one. */
    static final class Consumer extends Actor<Integer> {
        private final SelectorRef<BufferMsg, Box> buffer;
        private final int count;
        private int taken;
        long sum;

        Consumer(SelectorRef<BufferMsg, Box> buffer, int count) {
            this.buffer = buffer;
            this.count = count;
        }

        @Override
        protected void onStart() {
            buffer.send(Box.CONSUMER, new Take(self()));         // ask for the first item
        }

        @Override
        protected void process(Integer item) {
            sum += item;
            if (++taken < count) {
                buffer.send(Box.CONSUMER, new Take(self()));
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
        Consumer[] cs = new Consumer[consumers];                 // kept to read their sums afterwards
        finish(() -> {
            SelectorRef<BufferMsg, Box> ref = buffer.start("buffer");
            for (int p = 0; p < producers; p++) {
                new Producer(ref, p * perProducer, perProducer).start();
            }
            for (int c = 0; c < consumers; c++) {
                cs[c] = new Consumer(ref, producers * perProducer / consumers);
                cs[c].start();
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
