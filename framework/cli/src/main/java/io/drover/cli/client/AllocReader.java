package io.drover.cli.client;

import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the API's allocation JSON back into an {@link AllocationState} (its {@code job} is not in the JSON: it
 * is null) and the lifecycle labels of a job's tasks from {@code GET /v1/job/:id}, for the text formatter.
 *
 * <p>The allocation is read from the tree ({@link Json}) field by field, as Jackson's binding of the records would (Nomad's
 * field names, enums by wire name, instants as RFC 3339 text, missing fields null or 0, unknown ones
 * ignored), without an {@code ObjectMapper}: binding cost a CLI call ~0.2 s of start-up (docs/performance.md,
 * "Client commands"). {@code AllocReaderTest} checks it against Jackson's binding. Stateless.
 */
public final class AllocReader {
    private AllocReader() {}

    public static AllocationState alloc(String json) {
        try {
            return alloc(Json.parse(json));
        } catch (IOException e) {
            throw unreadable(e.getMessage());
        } catch (RuntimeException e) {
            throw unreadable(e.getMessage());
        }
    }

    private static AllocationState alloc(Json a) {
        if (!a.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        Map<String, TaskState> tasks = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, Json>> it = a.path("TaskStates").fields(); it.hasNext(); ) {
            Map.Entry<String, Json> e = it.next();
            tasks.put(e.getKey(), task(e.getValue()));
        }
        return new AllocationState(text(a, "ID"), text(a, "Name"), text(a, "JobID"), text(a, "TaskGroup"), 0,
                wire(ClientStatus.values(), a.get("ClientStatus"), ClientStatus::wireName, "ClientStatus"),
                text(a, "ClientDescription"),
                wire(DesiredStatus.values(), a.get("DesiredStatus"), DesiredStatus::wireName, "DesiredStatus"),
                text(a, "DesiredDescription"), a.path("CreateTime").asLong(), a.path("ModifyTime").asLong(), tasks,
                null);
    }

    private static TaskState task(Json t) {
        List<TaskEvent> events = new ArrayList<>();
        for (Json e : t.path("Events")) {
            events.add(event(e));
        }
        return new TaskState(wire(TaskLifeState.values(), t.get("State"), TaskLifeState::wireName, "State"),
                t.path("Failed").asBoolean(), t.path("Restarts").asInt(), instant(t, "LastRestart"),
                instant(t, "StartedAt"), instant(t, "FinishedAt"), events);
    }

    private static TaskEvent event(Json e) {
        Map<String, String> details = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, Json>> it = e.path("Details").fields(); it.hasNext(); ) {
            Map.Entry<String, Json> d = it.next();
            details.put(d.getKey(), d.getValue().isNull() ? "" : d.getValue().asText());
        }
        Json type = e.get("Type");
        return new TaskEvent(type == null || type.isNull() ? null : TaskEventType.fromWire(type.asText()),
                e.path("Time").asLong(), text(e, "DisplayMessage"), details, text(e, "Message"),
                e.path("FailsTask").asBoolean(), text(e, "RestartReason"), text(e, "SetupError"),
                text(e, "DriverError"), e.path("ExitCode").asInt(), e.path("Signal").asInt(), text(e, "KillReason"),
                e.path("KillTimeout").asLong(), text(e, "KillError"), e.path("StartDelay").asLong(),
                text(e, "FailedSibling"), text(e, "TaskSignal"), text(e, "TaskSignalReason"));
    }

    private static String text(Json o, String field) {
        Json v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Instant instant(Json o, String field) {
        Json v = o.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isNumber()) { // epoch seconds, as Jackson's InstantDeserializer reads a number
            long seconds = v.asLong();
            return Instant.ofEpochSecond(seconds, Math.round((v.asDouble() - seconds) * 1e9));
        }
        try {
            return io.drover.cli.format.Times.parse(v.asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + ": not an RFC 3339 time: " + v.asText());
        }
    }

    private static <E> E wire(E[] values, Json v, java.util.function.Function<E, String> name, String field) {
        if (v == null || v.isNull()) {
            return null;
        }
        for (E e : values) {
            if (name.apply(e).equals(v.asText())) {
                return e;
            }
        }
        throw new IllegalArgumentException(field + ": unknown value \"" + v.asText() + "\"");
    }

    private static UserException unreadable(String why) {
        return new UserException("cannot read the agent's allocation: " + why, ExitCodes.FAILED);
    }

    /**
     * Task name to its lifecycle label ({@code prestart sidecar}, {@code poststop}, ...; empty for a main task)
     * of one group of the job JSON; empty when the group is not there.
     */
    public static Map<String, String> labels(Json job, String group) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Json g : job.path("TaskGroups")) {
            if (!group.equals(g.path("Name").asText())) {
                continue;
            }
            for (Json t : g.path("Tasks")) {
                Json lc = t.path("Lifecycle");
                String hook = lc.path("Hook").asText("");
                out.put(t.path("Name").asText(), hook.isEmpty() ? ""
                        : hook + (lc.path("Sidecar").asBoolean() ? " sidecar" : ""));
            }
        }
        return out;
    }
}
