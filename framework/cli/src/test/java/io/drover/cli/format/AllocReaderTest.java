package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.client.AllocReader;
import io.drover.core.state.AllocationState;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client's text path: the API's allocation JSON read back (no job in it) and formatted with the labels of
 * the job's JSON gives the same text as the engine's snapshot with its job.
 */
class AllocReaderTest {
    @Test
    void allocationJsonReadBackFormatsLikeTheSnapshotWithItsJob() throws Exception {
        AllocationState alloc = Fixtures.seedAlloc();
        String json = new ObjectMapper().writeValueAsString(
                new ObjectMapper().readTree(AllocJson.format(java.util.List.of(alloc))).get(0));

        AllocationState read = AllocReader.alloc(json);
        Map<String, String> labels = AllocReader.labels(new ObjectMapper().readTree("""
                {"TaskGroups": [{"Name": "%s", "Tasks": [
                  {"Name": "poststop", "Lifecycle": {"Hook": "poststop", "Sidecar": false}},
                  {"Name": "test-task", "Lifecycle": null}]}]}
                """.formatted(alloc.taskGroup())), alloc.taskGroup());

        assertThat(read.job()).isNull();
        assertThat(read.taskStates()).isEqualTo(alloc.taskStates());
        assertThat(AllocStatusFormatter.format(read, ZoneOffset.UTC, labels))
                .isEqualTo(AllocStatusFormatter.format(alloc, ZoneOffset.UTC));
    }
}
