package dev.switchboard.docs.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's quick start runs to its end: its finish returns once both actors have exited. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QuickStartTest {
    @Test
    void pingPongEnds() {
        PingPong.main(new String[0]);            // returns only once both actors have exited
    }

    @Test
    void bothActorsHaveExitedWhenTheFinishReturns() {
        PongActor pong = new PongActor();
        PingActor ping = new PingActor(pong.ref());
        TaskRuntime.defaultRuntime().finish(() -> {
            ActorRef<Msg> p = pong.start();
            assertThat(p).isEqualTo(pong.ref());
            ping.start();
        });
        assertThat(pong.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(ping.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(pong.processedCount()).isEqualTo(2);   // the Ping and the Stop
    }
}
