package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.docs.ReadmeFragments.Box;
import dev.switchboard.docs.ReadmeFragments.Msg;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's fragments run: the selector takes one job at a time and the next only after its answer; the
 * monitor-bound dictionary answers. The actors live in the default runtime's global scope (they never exit).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadmeFragmentsTest {
    @Test
    void theRequesterTakesTheNextJobOnlyAfterTheAnswer() throws Exception {
        ActorRef<ReadmeFragments.Request> server = new ReadmeFragments.Server().start();
        ReadmeFragments scaffold = new ReadmeFragments(server);
        SelectorRef<Msg, Box> requester = scaffold.new Requester().start();
        for (int i = 1; i <= 3; i++) {
            requester.send(Box.REGULAR, new ReadmeFragments.Job(i));
        }
        assertThat(scaffold.threeUsed.get(30, TimeUnit.SECONDS)).isEqualTo("10 20 30 ");
    }

    @Test
    void theMonitorBoundDictionaryAnswers() throws Exception {
        ReadmeFragments.Dictionary dictionary = ReadmeFragments.monitored();
        CompletableFuture<String> answer = new CompletableFuture<>();
        ActorRef<String> reader = new Actor<String>() {
            @Override
            protected void process(String value) {
                answer.complete(value);
                exit();
            }
        }.start();
        ActorRef<ReadmeFragments.DictMsg> ref = dictionary.start();
        ref.send(new ReadmeFragments.Put("k", "v"));
        ref.send(new ReadmeFragments.Get("k", reader));
        assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo("v");
    }
}
