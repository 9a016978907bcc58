package io.drover.driver.api.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The SDK's copy of the parser (moved from the mock driver's tests; the job file parser's cases are in core). */
class GoDurationsTest {
    @Test
    void parsesGoSyntax() {
        assertThat(GoDurations.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(GoDurations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(GoDurations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(GoDurations.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDurations.parse("2us")).isEqualTo(Duration.ofNanos(2000));
        assertThat(GoDurations.parse("-5s")).isEqualTo(Duration.ofSeconds(-5));
    }

    @Test
    void rejectsOtherText() {
        for (String bad : new String[] {"", "5", "s", "5 s", "1x", "1..2s", "five"}) {
            assertThatThrownBy(() -> GoDurations.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
