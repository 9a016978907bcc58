package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterpolatorTest {
    private final Interpolator in = new Interpolator(Map.of("NOMAD_TASK_NAME", "web", "PORT", "8080"));

    @Test
    void replacesKnownReferencesAndKeepsUnknownOnes() {
        assertThat(in.apply("${NOMAD_TASK_NAME}:${PORT} ${UNKNOWN}")).isEqualTo("web:8080 ${UNKNOWN}");
        assertThat(in.apply("${env[\"PORT\"]}")).isEqualTo("8080");
        assertThat(in.apply("${ PORT }")).isEqualTo("8080");
    }

    @Test
    void doubleDollarIsALiteralReference() {
        assertThat(in.apply("$${PORT} is ${PORT}")).isEqualTo("${PORT} is 8080");
    }

    @Test
    void unterminatedReferenceIsLeftAlone() {
        assertThat(in.apply("a ${PORT")).isEqualTo("a ${PORT");
    }

    @Test
    void walksListsAndMaps() {
        assertThat(in.applyAny(List.of("${PORT}", Map.of("k", "${NOMAD_TASK_NAME}"), 3L)))
                .isEqualTo(List.of("8080", Map.of("k", "web"), 3L));
    }
}
