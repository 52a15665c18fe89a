package dev.switchboard.testing;

import dev.switchboard.actor.Actor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An actor that blocks inside {@code process} until {@code release} opens (at most 30 s), then exits: program code
 * outside the library's packages, as a hang report sees it.
 */
public final class BlockedActor extends Actor<String> {
    private final CountDownLatch release;

    public BlockedActor(CountDownLatch release) {
        this.release = release;
    }

    @Override
    protected void process(String m) {
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exit();
    }
}
