package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.UserException;
import io.drover.core.event.TaskEvents;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.driver.api.ExitResult;
import java.time.Duration;
import java.util.List;
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
        Map<String, String> labels = AllocReader.labels(io.drover.cli.client.Json.parse("""
                {"TaskGroups": [{"Name": "%s", "Tasks": [
                  {"Name": "poststop", "Lifecycle": {"Hook": "poststop", "Sidecar": false}},
                  {"Name": "test-task", "Lifecycle": null}]}]}
                """.formatted(alloc.taskGroup())), alloc.taskGroup());

        assertThat(read.job()).isNull();
        assertThat(read.taskStates()).isEqualTo(alloc.taskStates());
        assertThat(AllocStatusFormatter.format(read, ZoneOffset.UTC, labels))
                .isEqualTo(AllocStatusFormatter.format(alloc, ZoneOffset.UTC));
    }

    /**
     * The tree reader gives what Jackson's binding of the records gave (the reader the CLI had before): every
     * field, events of every kind with details, set and unset instants, a failed task with restarts.
     */
    @Test
    void readsWhatJacksonsBindingOfTheRecordsReads() throws Exception {
        AllocationState seed = Fixtures.seedAlloc();
        Map<String, TaskState> states = new java.util.LinkedHashMap<>(seed.taskStates());
        long t = Fixtures.at(50);
        states.put("flaky", new TaskState(TaskLifeState.DEAD, true, 2, Fixtures.T0.plusMillis(45), null,
                Fixtures.T0.plusMillis(60), List.of(TaskEvents.driverFailure(t, "boom\nline \u001b[31m"),
                        TaskEvents.restarting(t + 1, Duration.ofMillis(1500), "Restart within policy"),
                        TaskEvents.killing(t + 2, Duration.ofSeconds(5), "SIGTERM", "stop"),
                        TaskEvents.terminated(t + 3, ExitResult.signalled(9)),
                        TaskEvents.garbageCollected(t + 4, "system gc", "kill", true),
                        TaskEvents.notRestarting(t + 5, "Exceeded allowed attempts", true))));
        AllocationState alloc = new AllocationState(seed.id(), seed.name(), seed.jobId(), seed.taskGroup(), 0,
                ClientStatus.FAILED, "Failed tasks", DesiredStatus.STOP, "stopped by the user", seed.createTime(),
                seed.modifyTime(), states, null);
        String json = new ObjectMapper().writeValueAsString(
                new ObjectMapper().readTree(AllocJson.format(List.of(alloc))).get(0));

        AllocationState bound = AllocJson.mapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .readValue(json, AllocationState.class);
        assertThat(AllocReader.alloc(json)).isEqualTo(bound).isEqualTo(alloc);
    }

    @Test
    void anAnswerThatIsNoAllocationIsOneLine() {
        assertThatThrownBy(() -> AllocReader.alloc("{\"ID\": \"a\", \"ClientStatus\": \"exploded\"}"))
                .isInstanceOf(UserException.class)
                .hasMessage("cannot read the agent's allocation: ClientStatus: unknown value \"exploded\"");
        assertThatThrownBy(() -> AllocReader.alloc("{\"ID\": "))
                .isInstanceOf(UserException.class).hasMessageStartingWith("cannot read the agent's allocation: ");
        assertThatThrownBy(() -> AllocReader.alloc("[1]"))
                .hasMessage("cannot read the agent's allocation: not a JSON object");
    }
}
