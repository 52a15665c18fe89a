package dev.switchboard.examples;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * [Unified], Fig. 8: an actor that processes each message with a nested {@code finish} of parallel tasks. The
 * finish keeps every spawned task inside the processing of its message, so the actor still processes one
 * message at a time, while each message is processed on all cores.
 */
public final class ParallelizedActor implements Example {
    sealed interface Msg permits CountPrimes, Stop {
    }

    /** Counts the primes in [from, to). */
    record CountPrimes(int from, int to) implements Msg {
    }

    record Stop() implements Msg {
    }

    static final class PrimeCounter extends Actor<Msg> {
        private final PrintStream out;
        private final AtomicInteger overlapping = new AtomicInteger();
        int maxOverlap;

        PrimeCounter(PrintStream out) {
            this.out = out;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case CountPrimes c -> {
                    maxOverlap = Math.max(maxOverlap, overlapping.incrementAndGet());
                    // optional preprocessing of the message
                    LongAdder primes = new LongAdder();
                    finish(() -> {                        // ensures the spawned tasks complete
                        int step = (c.to() - c.from()) / 4;
                        for (int part = 0; part < 4; part++) {
                            int lo = c.from() + part * step;
                            int hi = part == 3 ? c.to() : lo + step;
                            async(() -> {                 // processing in parallel
                                for (int n = lo; n < hi; n++) {
                                    if (isPrime(n)) {
                                        primes.increment();
                                    }
                                }
                            });
                        }
                    });
                    // post-processing after the finish: every part has been counted
                    out.printf("primes in [%d, %d): %d%n", c.from(), c.to(), primes.sum());
                    overlapping.decrementAndGet();
                }
                case Stop s -> exit();
            }
        }
    }

    static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void run(PrintStream out) {
        PrimeCounter counter = new PrimeCounter(out);     // kept to read maxOverlap afterwards
        finish(() -> {
            ActorRef<Msg> primes = counter.start();
            primes.send(new CountPrimes(0, 100_000));
            primes.send(new CountPrimes(100_000, 200_000));
            primes.send(new CountPrimes(200_000, 300_000));
            primes.send(new Stop());
        });
        out.println("messages processed one at a time: " + (counter.maxOverlap == 1));
    }

    public static void main(String[] args) {
        new ParallelizedActor().run(System.out);
    }
}
