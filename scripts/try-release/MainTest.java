package app;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.testkit.SwitchboardTest;
import dev.switchboard.testkit.TestKit;
import dev.switchboard.testkit.TestProbe;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The new user's first test, with the test kit. */
@SwitchboardTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MainTest {
    @Test
    void thePongerAnswersEveryPingAndExitsAfterTheLast(TestKit kit) {
        TestProbe<Main.Pong> replies = kit.probe();
        ActorRef<Main.Ping> ponger = kit.spawn(new Main.Ponger());
        ponger.send(new Main.Ping(replies.ref(), 1));
        ponger.send(new Main.Ping(replies.ref(), 0));
        replies.expectMessage(new Main.Pong(1));
        replies.expectMessage(new Main.Pong(0));
        replies.expectNoMessage();
    }
}
