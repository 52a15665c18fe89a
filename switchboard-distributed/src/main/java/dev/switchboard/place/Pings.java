package dev.switchboard.place;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pings of a {@link Transport}: a {@link Frames.Ping} sent to a place, which its transport answers with the
 * {@link Frames.Pong} of the same id, and the wait for that answer, which fails if the place is lost first.
 */
final class Pings {
    /** A ping sent and not answered yet: completed with the time of the answer, or failed when the place is lost. */
    private record PendingPing(int place, CompletableFuture<Long> answered) {
    }

    private final Transport transport;
    /** Pings sent and not answered yet, by id. */
    private final ConcurrentHashMap<Long, PendingPing> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    Pings(Transport transport) {
        this.transport = transport;
    }

    /**
     * Probes {@code place}: sends a ping, which its transport answers, and returns the round trip.
     *
     * @throws PlaceConnectionException if the place is not connected or does not answer within {@code timeout}
     */
    Duration ping(int place, Duration timeout) throws InterruptedException {
        long id = ids.incrementAndGet();
        CompletableFuture<Long> answered = new CompletableFuture<>();
        pending.put(id, new PendingPing(place, answered));
        long sent = System.nanoTime();
        try {
            transport.send(place, new Frames.Ping(id));
            return Duration.ofNanos(answered.get(timeout.toNanos(), TimeUnit.NANOSECONDS) - sent);
        } catch (TimeoutException e) {
            throw new PlaceConnectionException("place " + transport.name(place) + " did not answer a ping within "
                    + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw (PlaceConnectionException) e.getCause();   // failed only when the place was lost
        } finally {
            pending.remove(id);
        }
    }

    /** The answer to the ping {@code id} came (on the I/O thread). */
    void answered(long id) {
        PendingPing ping = pending.remove(id);
        if (ping != null) {
            ping.answered().complete(System.nanoTime());
        }
    }

    /** Place {@code place} was lost: its pings not answered yet fail, saying why. */
    void placeLost(int place, String why) {
        pending.values().removeIf(p -> p.place() == place && p.answered().completeExceptionally(
                new PlaceConnectionException("place " + transport.name(place) + " was lost before it answered a"
                        + " ping: " + why)));
    }

    /** For tests: pings sent and not answered or failed yet. */
    int pending() {
        return pending.size();
    }
}
