package io.drover.core.event;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * One task event, in Nomad's JSON shape ({@code api.TaskEvent}). Immutable; build with {@link TaskEvents}.
 * Fields that do not apply keep Nomad's zero values (empty string, 0, false), never null, so consumers that
 * read Nomad's JSON work unchanged.
 *
 * @param time unix nanoseconds
 * @param killTimeout nanoseconds
 * @param startDelay nanoseconds
 */
public record TaskEvent(
        @JsonProperty("Type") TaskEventType type,
        @JsonProperty("Time") long time,
        @JsonProperty("DisplayMessage") String displayMessage,
        @JsonProperty("Details") Map<String, String> details,
        @JsonProperty("Message") String message,
        @JsonProperty("FailsTask") boolean failsTask,
        @JsonProperty("RestartReason") String restartReason,
        @JsonProperty("SetupError") String setupError,
        @JsonProperty("DriverError") String driverError,
        @JsonProperty("ExitCode") int exitCode,
        @JsonProperty("Signal") int signal,
        @JsonProperty("KillReason") String killReason,
        @JsonProperty("KillTimeout") long killTimeout,
        @JsonProperty("KillError") String killError,
        @JsonProperty("StartDelay") long startDelay,
        @JsonProperty("FailedSibling") String failedSibling,
        @JsonProperty("TaskSignal") String taskSignal,
        @JsonProperty("TaskSignalReason") String taskSignalReason) {

    public TaskEvent {
        details = details == null ? Map.of() : Map.copyOf(details);
        message = nz(message);
        restartReason = nz(restartReason);
        setupError = nz(setupError);
        driverError = nz(driverError);
        killReason = nz(killReason);
        killError = nz(killError);
        failedSibling = nz(failedSibling);
        taskSignal = nz(taskSignal);
        taskSignalReason = nz(taskSignalReason);
        displayMessage = nz(displayMessage);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
