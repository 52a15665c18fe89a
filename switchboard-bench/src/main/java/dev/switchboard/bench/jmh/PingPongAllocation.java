package dev.switchboard.bench.jmh;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Steady-state ping-pong with preallocated messages, on Switchboard and on Pekko, so that what {@code -prof gc}
 * reports as {@code gc.alloc.rate.norm} (bytes per operation, one operation = one message) is the runtime's own
 * allocation per message. The two long-lived actors exchange {@value #ROUND_TRIPS} round trips per invocation;
 * the per-invocation completion signal is amortised over them.
 *
 * <pre>./switchboard jmh -prof gc PingPongAllocation</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PingPongAllocation {
    static final int ROUND_TRIPS = 10_000;
    static final int MESSAGES = 2 * ROUND_TRIPS;

    // ------------------------------------------------------------------------------------------ Switchboard

    enum Ball { PING, PONG }

    /** A batch request: play {@code ROUND_TRIPS} round trips, then put into {@code done}. */
    record Serve(DataDrivenFuture<Boolean> done) {
    }

    static final class SbPing extends Actor<Object> {
        ActorRef<Object> pong;
        private int left;
        private DataDrivenFuture<Boolean> done;

        @Override
        protected void process(Object msg) {
            if (msg instanceof Serve s) {
                done = s.done();
                left = ROUND_TRIPS;
                pong.send(Ball.PING);
            } else if (--left > 0) {
                pong.send(Ball.PING);
            } else {
                done.put(Boolean.TRUE);
            }
        }

    }

    static final class SbPong extends Actor<Object> {
        ActorRef<Object> ping;

        @Override
        protected void process(Object msg) {
            ping.send(Ball.PONG);
        }

    }

    @State(Scope.Benchmark)
    public static class SwitchboardState {
        TaskRuntime runtime;
        ActorRef<Object> ping;

        @Setup(Level.Trial)
        public void setUp() {
            runtime = TaskRuntime.create(2);
            SbPing pinger = new SbPing();
            SbPong ponger = new SbPong();
            pinger.pong = ponger.ref();
            ponger.ping = pinger.ref();
            ping = pinger.ref();
            runtime.async(() -> {          // outside every finish: the actors live for the whole trial
                pinger.start();
                ponger.start();
            });
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            runtime.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public Boolean switchboard(SwitchboardState s) {
        DataDrivenFuture<Boolean> done = new DataDrivenFuture<>();
        s.ping.send(new Serve(done));
        return done.get();
    }

    // ------------------------------------------------------------------------------------------ Pekko

    static final class PekkoPing extends AbstractActor {
        org.apache.pekko.actor.ActorRef pong;
        private int left;
        private CompletableFuture<Boolean> done;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(org.apache.pekko.actor.ActorRef.class, p -> pong = p)
                    .match(CompletableFuture.class, f -> {
                        @SuppressWarnings("unchecked")
                        CompletableFuture<Boolean> d = f;
                        done = d;
                        left = ROUND_TRIPS;
                        pong.tell(Ball.PING, getSelf());
                    })
                    .match(Ball.class, b -> {
                        if (--left > 0) {
                            pong.tell(Ball.PING, getSelf());
                        } else {
                            done.complete(Boolean.TRUE);
                        }
                    })
                    .build();
        }
    }

    static final class PekkoPong extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Ball.class, b -> getSender().tell(Ball.PONG, getSelf()))
                    .build();
        }
    }

    @State(Scope.Benchmark)
    public static class PekkoState {
        ActorSystem system;
        org.apache.pekko.actor.ActorRef ping;

        @Setup(Level.Trial)
        public void setUp() {
            system = ActorSystem.create("jmh", dev.switchboard.bench.harness.PekkoSettings.matched(2,
                    TaskRuntime.DEFAULT_THROUGHPUT));
            ping = system.actorOf(Props.create(PekkoPing.class, PekkoPing::new));
            org.apache.pekko.actor.ActorRef pong = system.actorOf(Props.create(PekkoPong.class, PekkoPong::new));
            ping.tell(pong, org.apache.pekko.actor.ActorRef.noSender());
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            system.terminate();
        }
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public Boolean pekko(PekkoState s) throws Exception {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        s.ping.tell(done, org.apache.pekko.actor.ActorRef.noSender());
        return done.get();
    }
}
