package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class AllocJsonTest {
    @Test
    void writesAnArrayOfAllocationsWithNomadsFieldNames() throws Exception {
        JsonNode json = new ObjectMapper().readTree(AllocJson.format(List.of(Fixtures.seedAlloc())));

        JsonNode alloc = json.get(0);
        assertThat(json.isArray()).isTrue();
        assertThat(alloc.get("ID").asText()).isEqualTo(Fixtures.ALLOC_ID);
        assertThat(alloc.get("JobID").asText()).isEqualTo("example");
        assertThat(alloc.get("TaskGroup").asText()).isEqualTo("test-group");
        assertThat(alloc.get("ClientStatus").asText()).isEqualTo("complete");
        JsonNode poststop = alloc.get("TaskStates").get("poststop");
        assertThat(poststop.get("State").asText()).isEqualTo("dead");
        assertThat(poststop.get("StartedAt").asText()).isEqualTo("2023-07-17T20:28:14.122Z");
        assertThat(poststop.get("LastRestart").isNull()).isTrue();
        assertThat(poststop.get("Events").get(3).get("Type").asText()).isEqualTo("Terminated");
        assertThat(poststop.get("Events").get(3).get("Time").isIntegralNumber()).isTrue();
        assertThat(alloc.has("Job")).isFalse();
    }
}
