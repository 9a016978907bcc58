package io.drover.cli.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import io.drover.cli.format.AllocJson;
import io.drover.core.state.AllocationState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the API's allocation JSON back into an {@link AllocationState} (its {@code job} is not in the JSON: it
 * is null) and the lifecycle labels of a job's tasks from {@code GET /v1/job/:id}, for the text formatter.
 */
public final class AllocReader {
    private static final ObjectMapper MAPPER = AllocJson.mapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private AllocReader() {}

    public static AllocationState alloc(String json) {
        try {
            return MAPPER.readValue(json, AllocationState.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UserException("cannot read the agent's allocation: " + e.getOriginalMessage(),
                    ExitCodes.FAILED);
        }
    }

    /**
     * Task name to its lifecycle label ({@code prestart sidecar}, {@code poststop}, ...; empty for a main task)
     * of one group of the job JSON; empty when the group is not there.
     */
    public static Map<String, String> labels(JsonNode job, String group) {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode g : job.path("TaskGroups")) {
            if (!group.equals(g.path("Name").asText())) {
                continue;
            }
            for (JsonNode t : g.path("Tasks")) {
                JsonNode lc = t.path("Lifecycle");
                String hook = lc.path("Hook").asText("");
                out.put(t.path("Name").asText(), hook.isEmpty() ? ""
                        : hook + (lc.path("Sidecar").asBoolean() ? " sidecar" : ""));
            }
        }
        return out;
    }
}
