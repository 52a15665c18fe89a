package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import dev.switchboard.place.SelectorRecipe;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * [DistSelectors], Fig. 6 ([Selectors], Fig. 19), on places: producer-consumer with a bounded buffer, the buffer a selector
 * on one place and the producers and consumers spread over all of them. The buffer has a PRODUCER and a CONSUMER
 * mailbox, each with a declarative guard: it takes no data while full and serves no consumer while empty, so a
 * producer or consumer that must wait simply has its message wait — no queues of waiting producers and consumers.
 * A producer sends its next item once the buffer has taken the one before; a consumer asks for its next item once
 * it has one; both carry their own reference, across places, for the buffer to answer to.
 *
 * <p>Producer {@code p} sends the values {@code p * perProducer} to {@code (p + 1) * perProducer - 1}, so the
 * consumers together receive every value from 0 below {@code producers * perProducer} exactly once. They report
 * their counts and sums, and the buffer its highest fill, to a collector on place 0.
 */
public final class PlacesBoundedBuffer {
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

    sealed interface Report permits Consumed, BufferClosed {
    }

    record Consumed(int consumer, int place, int count, long sum) implements Report {
    }

    record BufferClosed(int place, int maxFill) implements Report {
    }

    record NewBuffer(int capacity, int producers, ActorRef<Report> collector)
            implements SelectorRecipe<BufferMsg, Box> {
        @Override
        public Selector<BufferMsg, Box> create() {
            return new Buffer(capacity, producers, collector);
        }

        @Override
        public Class<Box> mailboxes() {
            return Box.class;
        }
    }

    record NewProducer(SelectorRef<BufferMsg, Box> buffer, int base, int count) implements ActorRecipe<Produce> {
        @Override
        public Actor<Produce> create() {
            return new Producer(buffer, base, count);
        }
    }

    record NewConsumer(int consumer, SelectorRef<BufferMsg, Box> buffer, int count, ActorRef<Report> collector)
            implements ActorRecipe<Integer> {
        @Override
        public Actor<Integer> create() {
            return new Consumer(consumer, buffer, count, collector);
        }
    }

    /** Fig. 6: two guards say when each mailbox may be served. */
    static final class Buffer extends Selector<BufferMsg, Box> {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();
        private final int producers;
        private final ActorRef<Report> collector;
        private int producersDone;
        private int maxFill;

        Buffer(int capacity, int producers, ActorRef<Report> collector) {
            super(Box.class);
            this.producers = producers;
            this.collector = collector;
            guard(Box.PRODUCER, () -> items.size() < capacity);     // no data while full
            guard(Box.CONSUMER, () -> !items.isEmpty());             // no consumer while empty
        }

        @Override
        protected void process(BufferMsg msg) {
            switch (msg) {
                case Data d -> {
                    items.add(d.value());
                    maxFill = Math.max(maxFill, items.size());
                    d.producer().send(new Produce());                // ask for the next item
                }
                case Take t -> t.consumer().send(items.poll());
                case ProducerDone p -> producersDone++;
            }
            if (producersDone == producers && items.isEmpty()) {
                exit();
            }
        }

        @Override
        protected void onExit() {
            collector.send(new BufferClosed(Places.current().here(), maxFill));
        }
    }

    /** Sends {@code count} items, each once the buffer has taken the one before. */
    static final class Producer extends Actor<Produce> {
        private final SelectorRef<BufferMsg, Box> buffer;
        private final int base;
        private final int count;
        private int next;

        Producer(SelectorRef<BufferMsg, Box> buffer, int base, int count) {
            this.buffer = buffer;
            this.base = base;
            this.count = count;
        }

        @Override
        protected void onStart() {
            produce();
        }

        @Override
        protected void process(Produce p) {
            produce();
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
            buffer.send(Box.PRODUCER, new ProducerDone());           // the end of this producer's stream
        }
    }

    /** Takes {@code count} items, asking for the next once it has one, and reports what it took. */
    static final class Consumer extends Actor<Integer> {
        private final int consumer;
        private final SelectorRef<BufferMsg, Box> buffer;
        private final int count;
        private final ActorRef<Report> collector;
        private int taken;
        private long sum;

        Consumer(int consumer, SelectorRef<BufferMsg, Box> buffer, int count, ActorRef<Report> collector) {
            this.consumer = consumer;
            this.buffer = buffer;
            this.count = count;
            this.collector = collector;
        }

        @Override
        protected void onStart() {
            buffer.send(Box.CONSUMER, new Take(self()));
        }

        @Override
        protected void process(Integer item) {
            sum += item;
            if (++taken < count) {
                buffer.send(Box.CONSUMER, new Take(self()));
            } else {
                collector.send(new Consumed(consumer, Places.current().here(), taken, sum));
                exit();
            }
        }
    }

    /** On place 0: the consumers' reports and the buffer's. */
    static final class Collector extends Actor<Report> {
        final List<Consumed> consumed = new ArrayList<>();
        BufferClosed buffer;
        private int left;

        Collector(int consumers) {
            this.left = consumers + 1;
        }

        @Override
        protected void process(Report r) {
            switch (r) {
                case Consumed c -> consumed.add(c);
                case BufferClosed b -> buffer = b;
            }
            if (--left == 0) {
                exit();
            }
        }
    }

    /** What each consumer took, the buffer's highest fill, and the run's report. */
    public record Result(List<Consumed> consumed, BufferClosed buffer, PlacesReport report) {
        public long totalCount() {
            return consumed.stream().mapToLong(Consumed::count).sum();
        }

        public long totalSum() {
            return consumed.stream().mapToLong(Consumed::sum).sum();
        }
    }

    public static Result run(Places.Builder launch, PrintStream out) throws InterruptedException {
        return run(launch, 5, 3, 3, 100, out);
    }

    /**
     * The buffer on the last place, producer {@code p} on place {@code p % count}, consumer {@code c} on place
     * {@code (c + 1) % count}; the consumers share the items equally ({@code consumers} must divide them).
     */
    static Result run(Places.Builder launch, int capacity, int producers, int consumers, int perProducer,
                      PrintStream out) throws InterruptedException {
        int total = producers * perProducer;
        if (total % consumers != 0) {
            throw new IllegalArgumentException(consumers + " consumers cannot share " + total + " items equally");
        }
        Collector collector = new Collector(consumers);
        PlacesReport report = launch.messages(Data.class, Take.class, ProducerDone.class, Produce.class,
                Consumed.class, BufferClosed.class, NewBuffer.class, NewProducer.class, NewConsumer.class)
                .run(places -> {
                    ActorRef<Report> reports = collector.start();
                    SelectorRef<BufferMsg, Box> buffer = places.start(places.count() - 1,
                            new NewBuffer(capacity, producers, reports));
                    for (int p = 0; p < producers; p++) {
                        places.start(p % places.count(), new NewProducer(buffer, p * perProducer, perProducer));
                    }
                    for (int c = 0; c < consumers; c++) {
                        places.start((c + 1) % places.count(), new NewConsumer(c, buffer, total / consumers,
                                reports));
                    }
                });
        Result result = new Result(collector.consumed.stream()
                .sorted(Comparator.comparingInt(Consumed::consumer)).toList(), collector.buffer, report);
        for (Consumed c : result.consumed()) {
            out.printf("consumer %d on p%d took %d items summing to %d%n", c.consumer(), c.place(), c.count(),
                    c.sum());
        }
        out.printf("buffer on p%d (capacity %d): fill never above %d; %d items summing to %d (expected %d)%n",
                result.buffer().place(), capacity, result.buffer().maxFill(), result.totalCount(),
                result.totalSum(), (long) total * (total - 1) / 2);
        out.println(report);
        return result;
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), System.out);
    }
}
