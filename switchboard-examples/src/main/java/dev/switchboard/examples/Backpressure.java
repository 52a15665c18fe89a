package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.BoundedMailbox;
import java.io.PrintStream;
import java.time.Duration;

/**
 * Back-pressure with a bounded mailbox: a producer outside the runtime (here the main thread) is much faster than
 * the consumer, and with an unbounded mailbox it would fill the heap with queued messages. The consumer's mailbox
 * holds at most 1,000; the producer waits for room, so the heap never holds more than those.
 */
public final class Backpressure implements Example {
    sealed interface Reading permits Sample, End {
    }

    record Sample(int sensor, double value) implements Reading {
    }

    record End() implements Reading {
    }

    static final class Averager extends Actor<Reading> {
        private final PrintStream out;
        private double sum;
        private long count;
        private int mostWaiting;

        Averager(PrintStream out) {
            super(BoundedMailbox.waiting(1_000, Duration.ofSeconds(30)));
            this.out = out;
        }

        @Override
        protected void process(Reading r) {
            mostWaiting = Math.max(mostWaiting, mailboxSize());
            switch (r) {
                case Sample s -> {
                    sum += Math.sqrt(s.value());          // slower than the producer
                    count++;
                }
                case End e -> {
                    out.printf(java.util.Locale.ROOT, "averaged %,d samples; never more than %,d waiting in the mailbox%n",
                            count, mostWaiting);
                    exit();
                }
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        finish(() -> {
            ActorRef<Reading> averager = new Averager(out).start("averager");   // named in a MailboxFullException
            Thread producer = new Thread(() -> {          // outside the runtime: it may wait for room
                for (int i = 0; i < 1_000_000; i++) {
                    averager.send(new Sample(i % 16, i));
                }
                averager.send(new End());
            }, "producer");
            producer.start();
        });
    }
}
