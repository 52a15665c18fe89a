package dev.switchboard.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.LockSupport;

/**
 * A task body that blocks until {@code release} opens (at most 30 s): program code outside the library's packages,
 * as a hang report sees it.
 */
public final class BlockedTask implements Runnable {
    private final CountDownLatch release;
    private volatile Thread blocked;

    public BlockedTask(CountDownLatch release) {
        this.release = release;
    }

    @Override
    public void run() {
        blocked = Thread.currentThread();
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns once the thread running it is parked in the wait for {@code release} (a report can show it there). */
    public void awaitParked() {
        Await.until("a thread parked in the wait of " + this, () -> {
            Thread t = blocked;
            return t != null && LockSupport.getBlocker(t) instanceof AbstractQueuedSynchronizer;
        });
    }
}
