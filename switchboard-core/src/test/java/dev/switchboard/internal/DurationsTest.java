package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Ages in diagnostics read the same in every locale, rounded as {@code %.1f} rounds. They were made with
 * {@code String.format}, whose classes, initialized first while a thread was at its stack's edge, failed and made
 * every later hang report fail, and which wrote "3,4 s" in a German locale.
 */
class DurationsTest {
    @Test
    void agesAreMillisecondsThenTenthsOfSecondsInEveryLocale() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            assertThat(Durations.of(-5)).isEqualTo("0 ms");
            assertThat(Durations.of(999)).isEqualTo("999 ms");
            assertThat(Durations.of(1_000)).isEqualTo("1.0 s");
            assertThat(Durations.of(1_249)).isEqualTo("1.2 s");
            assertThat(Durations.of(1_250)).isEqualTo("1.3 s");
            assertThat(Durations.of(59_960)).isEqualTo("60.0 s");
            assertThat(Durations.ago(12_345)).isEqualTo("12.3 s ago");
        } finally {
            Locale.setDefault(before);
        }
    }
}
