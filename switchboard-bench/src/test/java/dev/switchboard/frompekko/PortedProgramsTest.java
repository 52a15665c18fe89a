package dev.switchboard.frompekko;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The two programs of docs/coming-from-pekko.md, each on Pekko and on Switchboard: they compile (the page shows
 * their text, DocSnippets checks it) and answer the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortedProgramsTest {
    @Test
    void theSupervisedCacheForgetsItsEntryAtItsRestartOnBoth() throws Exception {
        assertThat(CachePekko.run()).containsExactly("1", "?");
        assertThat(CacheSwitchboard.run()).containsExactly("1", "?");
    }

    @Test
    void theClientHoldsItsMessagesUntilConnectedAndThenHandlesThemInOrderOnBoth() throws Exception {
        assertThat(ClientPekko.run()).containsExactly("connected", "a", "b");
        assertThat(ClientSwitchboard.run()).containsExactly("connected", "a", "b");
    }
}
