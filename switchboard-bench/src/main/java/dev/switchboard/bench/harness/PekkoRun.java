package dev.switchboard.bench.harness;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * One run of a benchmark on Pekko. It ends when the result is known <em>and</em> every actor the run created has
 * stopped, as Savina's Akka harness waits for every actor's {@code postStop}. Switchboard's {@code finish} waits
 * for the termination of every actor too, so both sides measure the same thing, and no actor of one run is still
 * stopping while the next run is timed.
 */
public final class PekkoRun {
    /** Actors created and not yet stopped, plus one for the thread that creates the first ones. */
    private final AtomicInteger live = new AtomicInteger(1);
    private final CompletableFuture<Void> allStopped = new CompletableFuture<>();
    private final CompletableFuture<Long> result = new CompletableFuture<>();

    /** Creates an actor that counts toward this run; the actor must extend {@link Counted}. */
    public ActorRef spawn(ActorSystem system, Props props) {
        live.incrementAndGet();
        return system.actorOf(props);
    }

    /** Like {@link #spawn(ActorSystem, Props)}, from inside an actor of this run. */
    public ActorRef spawn(AbstractActor.ActorContext context, Props props) {
        live.incrementAndGet();
        return context.getSystem().actorOf(props);
    }

    /** Records the checksum of this run. */
    public void complete(long checksum) {
        result.complete(checksum);
    }

    private void stopped() {
        if (live.decrementAndGet() == 0) {
            allStopped.complete(null);
        }
    }

    /** Waits (up to five minutes) until the checksum is known and every actor of the run has stopped. */
    public long await() throws Exception {
        stopped();                                // the creating thread is done creating
        long checksum = result.get(5, TimeUnit.MINUTES);
        allStopped.get(5, TimeUnit.MINUTES);
        return checksum;
    }

    /** Base class of the benchmarks' Pekko actors: tells its run when it has stopped. */
    public abstract static class Counted extends AbstractActor {
        protected final PekkoRun run;

        protected Counted(PekkoRun run) {
            this.run = run;
        }

        @Override
        public void postStop() {
            run.stopped();
        }
    }
}
