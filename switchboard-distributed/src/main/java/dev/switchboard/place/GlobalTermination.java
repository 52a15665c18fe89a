package dev.switchboard.place;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * When a program of places has ended everywhere: the four-counter method over a ring of places.
 *
 * <p>Every place counts the program's frames it has sent ({@link Frames.Create}, {@link Frames.Deliver},
 * {@link Frames.Failed}, {@link Frames.Answer}, {@link Frames.Watch}, {@link Frames.Ended}) and received, and is
 * <em>idle</em> when nothing of its runtime's global scope is open (every actor created there exited, every task
 * ended) and nothing waits for a creation ({@link PlaceRuntime#idle}). Once the program's body has ended on place
 * 0, place 0 sends a {@link Frames.Wave} around the ring of places; each place adds its idleness and counts. The
 * program has ended when two consecutive waves find every place idle and the same totals, sent equal to received.
 * Then no frame is in flight: a place idle at both of its visits received nothing in between (its count did not
 * change), so it stayed idle and sent nothing; at the start of the second wave every place was idle and every frame
 * sent had been received. While the totals stay the same and some place is busy, place 0 reports a hang once per
 * stall, gathered from every place.
 */
final class GlobalTermination {
    private final PlaceRuntime place;
    /** The program's frames this place has sent and received. */
    final AtomicLong sent = new AtomicLong();
    final AtomicLong received = new AtomicLong();
    /** Place 0: the tokens of waves that came back (a queue: the transport's thread must never wait to hand one). */
    private final LinkedBlockingQueue<Frames.Wave> waveBack = new LinkedBlockingQueue<>();
    /** Place 0: set once the end is found; later losses of connections are the places ending. */
    volatile boolean terminated;
    /** Place 0: termination waves started so far (for tests). */
    volatile int wavesRun;

    GlobalTermination(PlaceRuntime place) {
        this.place = place;
    }

    /** The wave's visit of this place (not place 0): adds this place and passes the token on. */
    void passOn(Frames.Wave w) {
        if (place.here == 0) {
            waveBack.add(w);
            return;
        }
        boolean idle = place.idle();                           // before the counts: what it sent while busy is counted
        long[] dead = w.deadLetters().clone();
        dead[place.here] = place.deadLetters();
        Frames.Wave on = new Frames.Wave(w.round(), w.idle() && idle, w.sent() + sent.get(),
                w.received() + received.get(), dead);
        try {
            place.transport().sendControl((place.here + 1) % place.count(), on);
        } catch (RuntimeException e) {
            place.reportLost(e);                            // place 0 stops waiting for the wave (if the report
                                                          // cannot reach it either, it hears of the lost connection)
        }
    }

    /**
     * Place 0, once the program's body has ended: runs waves until two in a row find every place idle with the same
     * totals, sent equal to received. Returns the dead letters of every place, by index.
     *
     * @throws RuntimeException why the program cannot end, if a connection between places was lost meanwhile (a
     *         {@code PlaceConnectionException}, or a {@code PlaceFailureException} reporting one)
     */
    long[] await() throws InterruptedException {
        long lastSent = -1;
        long lastReceived = -1;
        long pauseNanos = 0;
        long bodyEnded = System.nanoTime();
        long progressAt = bodyEnded;                     // when the totals last changed
        long seenTotal = -1;
        long reportAfter = place.runtime.hangReportAfter().map(Duration::toNanos).orElse(Long.MAX_VALUE);
        boolean reported = false;
        for (int round = 1; ; round++) {
            wavesRun = round;
            boolean idle = place.idle();
            long[] dead = new long[place.count()];
            dead[0] = place.deadLetters();
            Frames.Wave w = new Frames.Wave(round, idle, sent.get(), received.get(), dead);
            if (place.count() > 1) {
                place.transport().sendControl(1, w);
                Frames.Wave back;
                do {
                    back = waveBack.poll(100, TimeUnit.MILLISECONDS);
                    RuntimeException lost = place.lostPlace();
                    if (lost != null) {
                        throw lost;                      // the wave may have gone with the place
                    }
                } while (back == null || back.round() != round);
                w = back;
            }
            if (w.idle() && w.sent() == w.received()) {
                if (w.sent() == lastSent && w.received() == lastReceived) {
                    terminated = true;
                    return w.deadLetters();
                }
                lastSent = w.sent();
                lastReceived = w.received();
                pauseNanos = 0;                          // the confirming wave goes at once
            } else {
                lastSent = -1;
                lastReceived = -1;
                pauseNanos = Math.min(Math.max(pauseNanos * 2, 50_000), 2_000_000);
                LockSupport.parkNanos(pauseNanos);       // a pause between polls, growing to 2 ms
            }
            long now = System.nanoTime();
            if (w.sent() + w.received() != seenTotal) {
                seenTotal = w.sent() + w.received();
                progressAt = now;
                reported = false;
            } else if (!reported && now - progressAt > reportAfter && place.hangReports() != null) {
                reported = true;                         // once per stall: the work of other places keeps it open
                List<String> open = place.runtime.diagnose();
                List<Throwable> bodyFailures = place.bodyFailures;
                place.hangReports().gather("Switchboard hang diagnostic: the program's body ended "
                        + Duration.ofNanos(now - bodyEnded).toSeconds() + " s ago" + (bodyFailures.isEmpty() ? ""
                        : ", failing (thrown once every place's work has ended: " + bodyFailures.stream()
                        .map(f -> f.getClass().getName() + ": " + f.getMessage()).collect(Collectors.joining("; "))
                        + ")") + "; its finish waits for the work of every place, and nothing has moved between"
                        + " places for " + Duration.ofNanos(now - progressAt).toSeconds() + " s"
                        + (open.isEmpty() ? "" : "\n  " + String.join("\n  ", open)));
            }
        }
    }
}
