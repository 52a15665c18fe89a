package dev.switchboard.bench.counting;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;

final class SwitchboardCounting {
    sealed interface Msg permits Increment, Retrieve, Result, Go {
    }

    enum Increment implements Msg { INSTANCE }

    record Retrieve(ActorRef<Msg> sender) implements Msg {
    }

    record Result(long count) implements Msg {
    }

    record Go() implements Msg {
    }

    private SwitchboardCounting() {
    }

    static long run(TaskRuntime runtime, int n) {
        Producer producer = new Producer(n);
        runtime.finish(() -> producer.start().send(new Go()));
        return producer.result;
    }

    static final class Producer extends Actor<Msg> {
        private final int n;
        long result;

        Producer(int n) {
            this.n = n;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Go g -> {
                    ActorRef<Msg> counter = new Counter().start();
                    for (int i = 0; i < n; i++) {
                        counter.send(Increment.INSTANCE);
                    }
                    counter.send(new Retrieve(self()));
                }
                case Result r -> {
                    result = r.count();
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Counter extends Actor<Msg> {
        private long count;

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Increment i -> count++;
                case Retrieve r -> {
                    r.sender().send(new Result(count));
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
