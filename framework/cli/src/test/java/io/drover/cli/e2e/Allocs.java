package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.StreamSupport;

/** Reading {@code drover run -json} output in assertions. */
final class Allocs {
    private Allocs() {}

    /** The only allocation of a run's JSON output. */
    static JsonNode single(CliRun run) throws Exception {
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.isArray()).as(run.out()).isTrue();
        assertThat(json.size()).as(run.out()).isEqualTo(1);
        return json.get(0);
    }

    /** Time (unix nanos) of the task's first event of that type; fails when there is none. */
    static long first(JsonNode alloc, String task, String type) {
        return events(alloc, task)
                .filter(e -> e.get("Type").asText().equals(type))
                .mapToLong(e -> e.get("Time").asLong())
                .findFirst()
                .orElseThrow(() -> new AssertionError("task " + task + " has no " + type + " event: "
                        + alloc.get("TaskStates").get(task)));
    }

    static long count(JsonNode alloc, String task, String type) {
        return events(alloc, task).filter(e -> e.get("Type").asText().equals(type)).count();
    }

    /** Every task is dead: State is never blank and never left running. */
    static void assertAllDead(JsonNode alloc) {
        Iterator<Map.Entry<String, JsonNode>> tasks = alloc.get("TaskStates").fields();
        assertThat(tasks.hasNext()).isTrue();
        tasks.forEachRemaining(t -> assertThat(t.getValue().get("State").asText()).as(t.getKey()).isEqualTo("dead"));
    }

    /** The task's first event of that type; fails when there is none. */
    static JsonNode event(JsonNode alloc, String task, String type) {
        return events(alloc, task).filter(e -> e.get("Type").asText().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("task " + task + " has no " + type + " event"));
    }

    /** The event types of a task state, oldest first. */
    static java.util.List<String> types(JsonNode taskState) {
        return StreamSupport.stream(taskState.get("Events").spliterator(), false)
                .map(e -> e.get("Type").asText()).toList();
    }

    private static java.util.stream.Stream<JsonNode> events(JsonNode alloc, String task) {
        JsonNode state = alloc.get("TaskStates").get(task);
        assertThat(state).as("task " + task).isNotNull();
        return StreamSupport.stream(state.get("Events").spliterator(), false);
    }
}
