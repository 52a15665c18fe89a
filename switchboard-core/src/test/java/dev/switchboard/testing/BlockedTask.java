package dev.switchboard.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A task body that blocks until {@code release} opens (at most 30 s): program code outside the library's packages,
 * as a hang report sees it.
 */
public final class BlockedTask implements Runnable {
    private final CountDownLatch release;

    public BlockedTask(CountDownLatch release) {
        this.release = release;
    }

    @Override
    public void run() {
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
