package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import dev.switchboard.task.RuntimeInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a worker's buffered activations are made stealable ({@link Worker}, "When buffered work is spread"): short
 * turns stay on their worker, so a server answering many request-reply clients is not spread over the pool one
 * wake-up at a time; work that needs another core gets it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandoffSpreadingTest {
    sealed interface Reply permits Go, Answer {
    }

    record Go() implements Reply {
    }

    record Answer(int value) implements Reply {
    }

    record Request(ActorRef<Reply> client, int value) {
    }

    static final class Server extends Actor<Request> {
        private final AtomicInteger left;

        Server(int requests) {
            this.left = new AtomicInteger(requests);
        }

        @Override
        protected void process(Request r) {
            r.client().send(new Answer(r.value() + 1));
            if (left.decrementAndGet() == 0) {
                exit();
            }
        }
    }

    static final class Client extends Actor<Reply> {
        private final ActorRef<Request> server;
        private int left;
        long sum;

        Client(ActorRef<Request> server, int requests) {
            this.server = server;
            this.left = requests;
        }

        @Override
        protected void process(Reply reply) {
            if (reply instanceof Answer a) {
                sum += a.value();
            }
            if (left-- > 0) {
                server.send(new Request(self(), left));
            } else {
                exit();
            }
        }
    }

    /**
     * 20 clients of one server, 2 workers, every turn a few hundred nanoseconds: the replies' activations stay in
     * the server's worker's buffer. Spreading them (as the runtime did before) made the idle worker steal about
     * every other activation. How many are stolen depends on the machine as well: a turn the OS pre-empts looks
     * long to the sampled average and to the watchdog, so on a busy machine more spread (a run on a loaded CI
     * machine saw 11 %). The test therefore takes the fewest steals of up to three runs and asserts that they
     * stay well below the spreading behaviour's half: a policy that spreads short turns fails every run, while
     * a load spike passes the next one.
     */
    @Test
    void shortTurnsOfARequestReplyServerStayOnTheirWorker() {
        int clients = 20;
        int perClient = 2_000;
        int requests = clients * perClient;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            run(rt, clients, perClient);                     // the turns' average settles
            long fewest = Long.MAX_VALUE;
            for (int attempt = 0; attempt < 3 && fewest >= requests / 4; attempt++) {
                long stealsBefore = RuntimeInternals.schedulerOf(rt).pool().getStealCount();
                long sum = run(rt, clients, perClient);
                long steals = RuntimeInternals.schedulerOf(rt).pool().getStealCount() - stealsBefore;
                assertThat(sum).isEqualTo(requests * (long) (perClient + 1) / 2);
                fewest = Math.min(fewest, steals);
            }
            assertThat(fewest).as("activations taken by another worker, of %d requests (fewest of up to 3 runs)",
                    requests).isLessThan(requests / 4);
        }
    }

    /**
     * While a program gives its workers chances to spread short turns, the watchdog times it with short turns
     * spread and with short turns kept where they are ({@link SpreadingTrials}). Which mode wins depends on the
     * machine and its load (the unit test of {@link SpreadingTrials} checks the verdicts); here, that the trials
     * run at all, and that the answers stay right whatever they decided.
     */
    @Test
    void theWatchdogTriesBothModesWhileAServerRuns() {
        int clients = 20;
        int perClient = 2_000;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            SpreadingTrials trials = RuntimeInternals.schedulerOf(rt).spreadingTrials();
            for (int run = 0; run < 200 && trials.trials() == 0; run++) {
                assertThat(run(rt, clients, perClient)).isEqualTo(clients * (long) perClient * (perClient + 1) / 2);
            }
            assertThat(trials.trials()).as("trials in up to 200 runs of %d requests", clients * perClient)
                    .isPositive();
        }
    }

    /**
     * Short turns that do not pay are still spread now and then, as probes, so the worker learns when they start
     * to pay; each probe wakes a parked worker, so they back off: the first after {@link Worker#PROBE_PERIOD}
     * chances, each next one after twice as many as the one before, up to {@link Worker#MAX_PROBE_PERIOD}; once
     * spreading pays, probing starts over.
     */
    @Test
    void probesBackOffWhileSpreadingDoesNotPay() {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            List<Integer> gaps = rt.future(() -> {
                Worker w = (Worker) Thread.currentThread();      // the worker's probe state is its own
                List<Integer> found = new ArrayList<>();
                int since = 0;
                while (found.size() < 10) {
                    since++;
                    if (w.probe()) {
                        found.add(since);
                        since = 0;
                        if (found.size() == 8) {
                            w.spreadingPaid();
                        }
                    }
                }
                return found;
            }).get();
            assertThat(gaps).as("chances between probes, spreading paying after the eighth").containsExactly(
                    32, 64, 128, 256, 512, 1024, 1024, 1024, 32, 64);
        }
    }

    private static long run(TaskRuntime rt, int clients, int perClient) {
        Client[] cs = new Client[clients];
        rt.finish(() -> {
            ActorRef<Request> server = new Server(clients * perClient).start();
            for (int i = 0; i < clients; i++) {
                cs[i] = new Client(server, perClient);
                ActorRef<Reply> client = cs[i].start();
                client.send(new Go());
            }
        });
        long sum = 0;
        for (Client c : cs) {
            sum += c.sum;
        }
        return sum;
    }

    /** Waits until both of a pair have started: passes only if the two run on two threads at the same time. */
    static final class Rendezvous extends Actor<CountDownLatch> {
        final AtomicInteger met;

        Rendezvous(AtomicInteger met) {
            this.met = met;
        }

        @Override
        protected void process(CountDownLatch both) {
            both.countDown();
            try {
                if (both.await(20, TimeUnit.SECONDS)) {
                    met.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exit();
        }
    }

    /**
     * After a long run of short turns (the worker's average says: do not spread), an actor hands two messages that
     * each occupy a worker to two idle actors: the second still gets the other worker (here through the
     * watchdog, which looks every millisecond while a worker holds back buffered activations), rather than
     * waiting behind the first.
     */
    @Test
    void workThatOccupiesAWorkerStillReachesTheIdleOneAfterManyShortTurns() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            run(rt, 20, 1_000);                              // many short turns on this runtime's workers
            for (int round = 0; round < 5; round++) {
                AtomicInteger met = new AtomicInteger();
                rt.finish(() -> {
                    ActorRef<CountDownLatch> a = new Rendezvous(met).start();
                    ActorRef<CountDownLatch> b = new Rendezvous(met).start();
                    Actor<Boolean> dispatcher = new Actor<>() {
                        @Override
                        protected void process(Boolean go) {
                            CountDownLatch both = new CountDownLatch(2);
                            a.send(both);
                            b.send(both);
                            exit();
                        }
                    };
                    ActorRef<Boolean> d = dispatcher.start();
                    d.send(true);
                });
                assertThat(met).as("round %d: both actors of the pair ran at the same time", round).hasValue(2);
            }
        }
    }
}
