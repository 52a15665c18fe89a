package dev.switchboard.bench.hotserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import dev.switchboard.bench.harness.PekkoSettings;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ServerCeiling} serves a grid cell's requests to the cell's checksum on all three sides. Not a timing test:
 * Pekko's side runs on a thread pool ({@link PekkoSettings#threadPool}), which its fork-join pool's lost mailbox
 * cannot hang.
 */
class ServerCeilingTest {
    private static final Config PEKKO = PekkoSettings.threadPool(2, 5);

    @Test
    void theOneThreadServesEveryShapeToTheChecksum() {
        for (String name : List.of("Server1K-1c-0w", "Server1K-4c-50w", "Server1K-64c-10w-ReplyTo")) {
            HotServer cell = HotServer.gridCell(name);
            assertThat(ServerCeiling.oneThread(cell.shape(), HotServer.state(cell.shape())))
                    .as(name).isEqualTo(cell.expected());
        }
    }

    @Test
    @Timeout(120)
    void everySideIsCheckedAndTimed() throws Exception {
        List<ServerCeiling.Result> results = ServerCeiling.measure(
                List.of(HotServer.gridCell("server1k-4c-10w"), HotServer.gridCell("Server1K-20c-50w-ReplyTo")), 2,
                false, PEKKO, r -> { });
        assertThat(results).extracting(ServerCeiling.Result::cell)
                .containsExactly("Server1K-4c-10w", "Server1K-20c-50w-ReplyTo");
        assertThat(results).allSatisfy(r -> assertThat(List.of(r.ceilingMs(), r.switchboardMs(), r.pekkoMs()))
                .allSatisfy(ms -> assertThat(ms).isPositive()));
        assertThat(results).allSatisfy(r -> assertThat(r.oneWorkerMs()).isNaN());
    }

    @Test
    @Timeout(120)
    void withOneWorkerAFourthSideIsCheckedAndTimed() throws Exception {
        List<ServerCeiling.Result> results = ServerCeiling.measure(
                List.of(HotServer.gridCell("Server1K-4c-10w-ReplyTo")), 2, true, PEKKO, r -> { });
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.oneWorkerMs()).isPositive();
            assertThat(r.twoWorkersOverOne()).isEqualTo(r.switchboardMs() / r.oneWorkerMs());
        });
    }

    @Test
    void anUnknownCellIsNamedWithTheCellsThereAre() {
        assertThatThrownBy(() -> ServerCeiling.main(new String[] {"Server2M-20c-10w"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Server2M-20c-10w")
                .hasMessageContaining("Server{1K,100K,1M}-{1,4,20,64}c-{0,10,50}w");
        assertThatThrownBy(() -> ServerCeiling.main(new String[] {"Server1M-20c-10w", "0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ROUNDS").hasMessageContaining("'0'");
    }
}
