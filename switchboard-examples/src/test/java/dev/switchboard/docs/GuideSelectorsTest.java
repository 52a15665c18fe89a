package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.SelectorRef;
import dev.switchboard.docs.GuideSelectors.Box;
import dev.switchboard.docs.GuideSelectors.Msg;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The guide's selectors run in the default runtime's global scope (they never exit). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuideSelectorsTest {
    final GuideSelectors guide = new GuideSelectors();

    @Test
    void theRequesterRoutesJobsAndAnswersByName() throws Exception {
        guide.server = new GuideSelectors.Server().start();
        GuideSelectors.Requester requester = guide.new Requester();
        SelectorRef<Msg, Box> ref = requester.ref();
        for (int i = 1; i <= 3; i++) {
            ref.send(new GuideSelectors.Job(i));            // routed to REGULAR by routeTo
        }
        assertThat(requester.mailboxSize()).isEqualTo(3);
        requester.start();
        Waits.until(() -> guide.seen.size() == 3, "three answers used");
        assertThat(guide.seen).containsExactly(10, 20, 30);
    }

    @Test
    void theNumberedAdderTakesItemsIntoTheSourcesMailbox() {
        SelectorRef<GuideSelectors.Item, ?> adder = guide.adder(2, new GuideSelectors.Item(5));
        assertThat(adder.mailboxCount()).isEqualTo(3);
    }
}
