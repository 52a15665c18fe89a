package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While short turns are held, a runtime's actors run on one worker at a time ({@link Concentration}), and a worker
 * that stops making progress loses them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcentrationTest {
    private static final int THROUGHPUT = 8;
    private static final int PLAYERS = 32;

    sealed interface Msg permits Ball, Stop {
    }

    /** A ball thrown from player to player until its hops are used up. */
    record Ball(int hopsLeft) implements Msg {
    }

    record Stop() implements Msg {
    }

    /** What the players share: the balls done, and the turns that began while another player's turn ran. */
    static final class Game {
        final ActorRef<Msg>[] players = ActorRef.newArray(PLAYERS);
        final AtomicInteger inProcess = new AtomicInteger();
        final AtomicLong overlaps = new AtomicLong();
        final AtomicLong messages = new AtomicLong();
        final AtomicInteger ballsDone = new AtomicInteger();
    }

    /** Every player busy at once, every message short: Savina's Big in miniature. */
    static final class Player extends Actor<Msg> {
        private final Game game;
        private final SplittableRandom random;

        Player(Game game, int seed) {
            this.game = game;
            this.random = new SplittableRandom(seed);
        }

        @Override
        protected void process(Msg msg) {
            if (game.inProcess.getAndIncrement() > 0) {
                game.overlaps.incrementAndGet();     // another worker is inside a player's turn
            }
            game.messages.incrementAndGet();
            switch (msg) {
                case Ball b when b.hopsLeft() > 0 ->
                        game.players[random.nextInt(PLAYERS)].send(new Ball(b.hopsLeft() - 1));
                case Ball b -> {
                    if (game.ballsDone.incrementAndGet() == PLAYERS) {
                        for (ActorRef<Msg> p : game.players) {
                            p.send(new Stop());
                        }
                    }
                }
                case Stop s -> exit();
            }
            game.inProcess.decrementAndGet();
        }
    }

    /**
     * A program whose actors are all busy with short turns, on two workers, short turns held: player turns overlap
     * only while the actors change hands: around an owner the watchdog revoked (its turn under way, and up to
     * {@link Worker#SHARED_PERIOD} more turns before it looks, each at most {@code PLAYERS} messages: every ball in
     * one mailbox), and while an owner that ended its chain and the worker claiming after it both run players. The
     * second has no bound in turns of its own, so the test allows one message in twenty for all hand-overs besides
     * the revocations. Without concentration both workers run players all along: 16–22 % of the messages overlap
     * another on a quiet two-core machine (with it: at most 1.7 %, and 4.3 % beside two busy processes, where the
     * watchdog revokes a descheduled owner a dozen times a run).
     */
    @Test
    void heldActorsRunOnOneWorkerAtATime() {
        int hops = 5_000;
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).throughput(THROUGHPUT).build()) {
            Scheduler scheduler = RuntimeInternals.schedulerOf(rt);
            scheduler.spreading.trials().pin(true);
            long revokedBefore = scheduler.concentration.revocations();
            Game game = new Game();
            rt.finish(() -> {
                for (int i = 0; i < PLAYERS; i++) {
                    game.players[i] = new Player(game, i).start();
                }
                for (ActorRef<Msg> p : game.players) {
                    p.send(new Ball(hops));
                }
            });
            long revoked = scheduler.concentration.revocations() - revokedBefore;
            assertThat(game.messages.get()).isEqualTo(PLAYERS * (hops + 1L) + PLAYERS);
            long messages = game.messages.get();
            assertThat(game.overlaps.get())
                    .as("turns begun beside another worker's, of %d messages, with %d owners revoked", messages, revoked)
                    .isLessThanOrEqualTo(messages / 20 + revoked * (Worker.SHARED_PERIOD + 1) * PLAYERS);
        }
    }

    /**
     * The owner blocks in user code, unseen by the runtime, until another actor has run: the watchdog takes the
     * actors from it (it started nothing for a whole look while work waited), and the other worker runs that
     * actor. Without that, the program would never end.
     */
    @Test
    void anOwnerThatBlocksLosesTheActors() {
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).build()) {
            Scheduler scheduler = RuntimeInternals.schedulerOf(rt);
            scheduler.spreading.trials().pin(true);
            long revokedBefore = scheduler.concentration.revocations();
            CountDownLatch otherRan = new CountDownLatch(100);
            CountDownLatch blocking = new CountDownLatch(1);
            rt.finish(() -> {                            // the body runs on this thread, outside the workers
                new Actor<String>() {
                    @Override
                    protected void process(String msg) {
                        blocking.countDown();
                        await(otherRan);                 // its worker owns the actors, and blocks
                        exit();
                    }
                }.start().send("block");
                await(blocking);
                ActorRef<String> other = new Actor<String>() {
                    private int left = 100;

                    @Override
                    protected void process(String msg) {
                        otherRan.countDown();
                        if (--left == 0) {
                            exit();
                        }
                    }
                }.start();
                for (int i = 0; i < 100; i++) {
                    other.send("run");
                }
            });
            assertThat(otherRan.getCount()).isZero();
            assertThat(scheduler.concentration.revocations() - revokedBefore).isPositive();
        }
    }

    /** Waits for {@code latch}, failing after the class's timeout budget rather than hanging. */
    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(50, TimeUnit.SECONDS)) {
                throw new AssertionError("waited 50 s for " + latch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
