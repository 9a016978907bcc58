package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationsTest {

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource({
        "0, 0", "0s, 0", "-0, 0", "250ms, 250000000", "1.5s, 1500000000", "1m30s, 90000000000",
        "24h, 86400000000000", "300us, 300000", "300µs, 300000", "7ns, 7", "1h2m3.5s, 3723500000000",
        "-5s, -5000000000", "+2m, 120000000000", ".5s, 500000000", "1.s, 1000000000", "0.3s, 300000000",
        "2562047h47m16.854775807s, 9223372036854775807"})
    void parsesGoSyntax(String text, long nanos) {
        assertThat(GoDurations.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "s", "5", "10 s", "5sec", "1d", ".s", "-", "1.2.3s", "99999999999999999999h",
        "2562048h", "5s-", "ms"})
    void refusesEverythingElse(String text) {
        assertThatThrownBy(() -> GoDurations.parse(text)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duration");
    }
}
