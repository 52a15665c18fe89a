package dev.switchboard.testing;

import dev.switchboard.actor.Actor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.LockSupport;

/**
 * An actor that blocks inside {@code process} until {@code release} opens (at most 30 s), then exits: program code
 * outside the library's packages, as a hang report sees it.
 */
public final class BlockedActor extends Actor<String> {
    private final CountDownLatch release;
    private volatile Thread blocked;

    public BlockedActor(CountDownLatch release) {
        this.release = release;
    }

    @Override
    protected void process(String m) {
        blocked = Thread.currentThread();
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exit();
    }

    /** Returns once the thread running it is parked in the wait for {@code release} (a report can show it there). */
    public void awaitParked() {
        Await.until("a thread parked in the wait of " + this, () -> {
            Thread t = blocked;
            return t != null && LockSupport.getBlocker(t) instanceof AbstractQueuedSynchronizer;
        });
    }
}
