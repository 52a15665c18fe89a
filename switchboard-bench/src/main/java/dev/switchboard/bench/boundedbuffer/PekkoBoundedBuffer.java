package dev.switchboard.bench.boundedbuffer;

import dev.switchboard.bench.harness.PekkoRun;
import java.util.ArrayDeque;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * The bounded buffer on Pekko classic actors: one manager actor that, besides the buffer, queues the producers
 * it has not yet asked for more and the consumers it has no item for ([Selectors] §7's actor solution, as in
 * Savina's Akka version).
 */
final class PekkoBoundedBuffer {
    record Start() {
    }

    record Produce() {
    }

    record Data(long value) {
    }

    record Available() {
    }

    record ProducerExit() {
    }

    record ConsumerExit() {
    }

    record Totals(long count, long sum, long work) {
    }

    private static final Produce PRODUCE = new Produce();
    private static final Available AVAILABLE = new Available();
    private static final ConsumerExit CONSUMER_EXIT = new ConsumerExit();
    private static final ProducerExit PRODUCER_EXIT = new ProducerExit();

    private PekkoBoundedBuffer() {
    }

    static long run(ActorSystem system, BoundedBufferBenchmark b) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef manager = run.spawn(system, Props.create(Manager.class, () -> new Manager(run, b)));
        manager.tell(new Start(), ActorRef.noSender());
        return run.await();
    }

    static final class Manager extends PekkoRun.Counted {
        private final ArrayDeque<Data> buffer = new ArrayDeque<>();
        private final ArrayDeque<ActorRef> waitingProducers = new ArrayDeque<>();
        private final ArrayDeque<ActorRef> waitingConsumers = new ArrayDeque<>();
        private final int threshold;
        private final long total;
        private final ActorRef[] producers;
        private final ActorRef[] consumers;
        private long delivered;
        private int producersDone;
        private int consumersDone;
        private long consumed;
        private long sum;
        private long work;

        Manager(PekkoRun run, BoundedBufferBenchmark b) {
            super(run);
            threshold = b.threshold();
            total = b.totalItems();
            ActorRef self = getSelf();
            producers = new ActorRef[b.producers];
            for (int i = 0; i < producers.length; i++) {
                long first = BoundedBufferBenchmark.firstState(i);
                producers[i] = run.spawn(getContext(), Props.create(Producer.class,
                        () -> new Producer(run, self, first, b.itemsPerProducer, b.produceCost)));
            }
            consumers = new ActorRef[b.consumers];
            for (int i = 0; i < consumers.length; i++) {
                consumers[i] = run.spawn(getContext(), Props.create(Consumer.class,
                        () -> new Consumer(run, self, b.consumeCost)));
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> {
                        for (ActorRef c : consumers) {
                            waitingConsumers.add(c);
                        }
                        for (ActorRef p : producers) {
                            p.tell(PRODUCE, getSelf());
                        }
                    })
                    .match(Data.class, d -> {
                        if (waitingConsumers.isEmpty()) {
                            buffer.add(d);
                        } else {
                            deliver(waitingConsumers.poll(), d);
                        }
                        if (buffer.size() >= threshold) {
                            waitingProducers.add(getSender());
                        } else {
                            getSender().tell(PRODUCE, getSelf());
                        }
                    })
                    .match(Available.class, a -> {
                        Data d = buffer.poll();
                        if (d != null) {
                            deliver(getSender(), d);
                            ActorRef producer = waitingProducers.poll();
                            if (producer != null) {
                                producer.tell(PRODUCE, getSelf());
                            }
                        } else if (delivered == total) {
                            getSender().tell(CONSUMER_EXIT, getSelf());
                        } else {
                            waitingConsumers.add(getSender());
                        }
                    })
                    .match(ProducerExit.class, p -> {
                        producersDone++;
                        stopIfDone();
                    })
                    .match(Totals.class, t -> {
                        consumed += t.count();
                        sum += t.sum();
                        work ^= t.work();
                        consumersDone++;
                        stopIfDone();
                    })
                    .build();
        }

        private void deliver(ActorRef consumer, Data d) {
            consumer.tell(d, getSelf());
            if (++delivered == total) {
                for (ActorRef c : waitingConsumers) {       // nothing more will come for them
                    c.tell(CONSUMER_EXIT, getSelf());
                }
                waitingConsumers.clear();
            }
        }

        private void stopIfDone() {
            if (producersDone == producers.length && consumersDone == consumers.length) {
                getContext().stop(getSelf());
                run.complete(BoundedBufferBenchmark.checksum(consumed, sum));
            }
        }
    }

    static final class Producer extends PekkoRun.Counted {
        private final ActorRef manager;
        private final int items;
        private final int cost;
        private long state;
        private int produced;

        Producer(PekkoRun run, ActorRef manager, long firstState, int items, int cost) {
            super(run);
            this.manager = manager;
            this.state = firstState;
            this.items = items;
            this.cost = cost;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Produce.class, p -> {
                        if (produced == items) {
                            manager.tell(PRODUCER_EXIT, getSelf());
                            getContext().stop(getSelf());
                            return;
                        }
                        state = BoundedBufferBenchmark.work(state, cost);
                        produced++;
                        manager.tell(new Data(state), getSelf());
                    })
                    .build();
        }
    }

    static final class Consumer extends PekkoRun.Counted {
        private final ActorRef manager;
        private final int cost;
        private long count;
        private long sum;
        private long work;

        Consumer(PekkoRun run, ActorRef manager, int cost) {
            super(run);
            this.manager = manager;
            this.cost = cost;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Data.class, d -> {
                        work = BoundedBufferBenchmark.work(work + d.value(), cost);
                        count++;
                        sum += d.value();
                        manager.tell(AVAILABLE, getSelf());
                    })
                    .match(ConsumerExit.class, e -> {
                        manager.tell(new Totals(count, sum, work), getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
