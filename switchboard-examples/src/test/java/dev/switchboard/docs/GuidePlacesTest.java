package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The guide's program on places runs to its global end, on one place and on two, with no dead letter. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GuidePlacesTest {
    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 2})
    void pingPongOnPlaces(int places) throws Exception {
        GuidePlaces.main(new String[] {"--places", Integer.toString(places), "--workers", "1"});
        assertThat(GuidePlaces.lastReport.totalDeadLetters()).isZero();
    }
}
