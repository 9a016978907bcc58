package io.drover.core.event;

import io.drover.driver.api.ExitResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Factories for every event the engine records, with Nomad's display messages
 * ({@code structs.TaskEvent.PopulateEventDisplayMessage}) and Nomad-style {@code Details}.
 * Pure functions of their arguments; {@code time} is unix nanoseconds.
 */
public final class TaskEvents {
    /** Nomad's restart reasons. */
    public static final String REASON_WITHIN_POLICY = "Restart within policy";
    public static final String REASON_UNRECOVERABLE = "Error was unrecoverable";
    public static final String REASON_DELAY = "Exceeded allowed attempts, applying a delay";
    public static final String REASON_NO_RESTARTS = "Policy allows no restarts";
    public static final String REASON_SUCCESS = "Restart unnecessary as task terminated successfully";

    private TaskEvents() {}

    private static TaskEvent of(TaskEventType type, long time, String display, Map<String, String> details) {
        return new TaskEvent(type, time, display, details, "", false, "", "", "", 0, 0, "", 0, "", 0, "", "", "");
    }

    public static TaskEvent received(long time) {
        return of(TaskEventType.RECEIVED, time, "Task received by client", Map.of());
    }

    public static TaskEvent taskSetup(long time) {
        TaskEvent e = of(TaskEventType.TASK_SETUP, time, "Building Task Directory",
                Map.of("message", "Building Task Directory"));
        return with(e, "Building Task Directory");
    }

    public static TaskEvent setupFailure(long time, String error, boolean failsTask) {
        return new TaskEvent(TaskEventType.SETUP_FAILURE, time, error, Map.of("setup_error", error,
                "fails_task", String.valueOf(failsTask)), "", failsTask, "", error, "", 0, 0, "", 0, "", 0,
                "", "", "");
    }

    public static TaskEvent downloadingArtifacts(long time) {
        return of(TaskEventType.DOWNLOADING_ARTIFACTS, time, "Client is downloading artifacts", Map.of());
    }

    /** Nomad's DownloadError is in {@code Details.download_error} and the display message; not failing the task. */
    public static TaskEvent artifactDownloadFailed(long time, String error) {
        return of(TaskEventType.ARTIFACT_DOWNLOAD_FAILED, time, error, Map.of("download_error", error));
    }

    /** Nomad's {@code Task hook failed}: the hook's name and error as the display message. */
    public static TaskEvent taskHookFailed(long time, String message) {
        return with(of(TaskEventType.TASK_HOOK_FAILED, time, message, Map.of("message", message)), message);
    }

    public static TaskEvent started(long time) {
        return of(TaskEventType.STARTED, time, "Task started by client", Map.of());
    }

    public static TaskEvent terminated(long time, ExitResult exit) {
        StringBuilder display = new StringBuilder("Exit Code: ").append(exit.exitCode());
        if (exit.signal() != 0) {
            display.append(", Signal: ").append(exit.signal());
        }
        if (!exit.message().isEmpty()) {
            display.append(", Exit Message: \"").append(exit.message()).append('"');
        }
        Map<String, String> details = new LinkedHashMap<>();
        details.put("exit_code", String.valueOf(exit.exitCode()));
        details.put("signal", String.valueOf(exit.signal()));
        details.put("oom_killed", String.valueOf(exit.oomKilled()));
        details.put("exit_message", exit.message());
        return new TaskEvent(TaskEventType.TERMINATED, time, display.toString(), details, exit.message(), false,
                "", "", "", exit.exitCode(), exit.signal(), "", 0, "", 0, "", "", "");
    }

    /** {@code reason} empty: the usual "Sent interrupt" message. */
    public static TaskEvent killing(long time, Duration killTimeout, String signal, String reason) {
        String display;
        if (!reason.isEmpty()) {
            display = "Killing task: " + reason;
        } else if (!killTimeout.isZero()) {
            display = "Sent interrupt. Waiting " + GoDuration.format(killTimeout) + " before force killing";
        } else {
            display = "Sent interrupt";
        }
        Map<String, String> details = new LinkedHashMap<>();
        details.put("kill_timeout", GoDuration.format(killTimeout));
        details.put("kill_signal", signal);
        if (!reason.isEmpty()) {
            details.put("kill_reason", reason);
        }
        return new TaskEvent(TaskEventType.KILLING, time, display, details, "", false, "", "", "", 0, 0, reason,
                killTimeout.toNanos(), "", 0, "", signal, "");
    }

    public static TaskEvent killed(long time, String killError) {
        String display = killError.isEmpty() ? "Task successfully killed" : killError;
        Map<String, String> details = killError.isEmpty() ? Map.of() : Map.of("kill_error", killError);
        return new TaskEvent(TaskEventType.KILLED, time, display, details, "", false, "", "", "", 0, 0, "", 0,
                killError, 0, "", "", "");
    }

    public static TaskEvent restarting(long time, Duration delay, String reason) {
        String display = "Task restarting in " + GoDuration.format(delay);
        if (!reason.isEmpty() && !reason.equals(REASON_WITHIN_POLICY)) {
            display = display + " - " + reason;
        }
        return new TaskEvent(TaskEventType.RESTARTING, time, display, Map.of("restart_reason", reason,
                "start_delay", String.valueOf(delay.toNanos())), "", false, reason, "", "", 0, 0, "", 0, "",
                delay.toNanos(), "", "", "");
    }

    public static TaskEvent notRestarting(long time, String reason, boolean failsTask) {
        String display = reason.isEmpty() ? "Task exceeded restart policy" : reason;
        return new TaskEvent(TaskEventType.NOT_RESTARTING, time, display, Map.of("restart_reason", reason,
                "fails_task", String.valueOf(failsTask)), "", failsTask, reason, "", "", 0, 0, "", 0, "", 0, "",
                "", "");
    }

    public static TaskEvent driverFailure(long time, String error) {
        String display = error.isEmpty() ? "Failed to start task" : error;
        return new TaskEvent(TaskEventType.DRIVER_FAILURE, time, display, Map.of("driver_error", error), "",
                false, "", "", error, 0, 0, "", 0, "", 0, "", "", "");
    }

    public static TaskEvent siblingFailed(long time, String sibling) {
        return new TaskEvent(TaskEventType.SIBLING_FAILED, time, "Task's sibling \"" + sibling + "\" failed",
                Map.of("failed_sibling", sibling), "", false, "", "", "", 0, 0, "", 0, "", 0, sibling, "", "");
    }

    public static TaskEvent leaderDead(long time) {
        return of(TaskEventType.LEADER_DEAD, time, "Leader Task in Group dead", Map.of());
    }

    public static TaskEvent mainDead(long time) {
        return of(TaskEventType.MAIN_DEAD, time, "Main tasks in the group died", Map.of());
    }

    /** Nomad's template hook: a re-rendered template with change_mode restart restarts the task (not a failure). */
    public static TaskEvent restartSignaled(long time, String display) {
        return of(TaskEventType.RESTART_SIGNALED, time, display, Map.of());
    }

    /** Nomad's {@code Task hook failed}: a template's change_script failed, exited non-zero or timed out. */
    public static TaskEvent hookFailed(long time, String display) {
        return of(TaskEventType.HOOK_FAILED, time, display, Map.of());
    }

    /** Nomad's {@code Task hook message}: a template's change_script ran and exited 0. */
    public static TaskEvent hookMessage(long time, String display) {
        return of(TaskEventType.HOOK_MESSAGE, time, display, Map.of());
    }

    /** Nomad's template hook: a re-rendered template with change_mode signal sends its change_signal. */
    public static TaskEvent templateSignal(long time, String signal) {
        return new TaskEvent(TaskEventType.SIGNALING, time, "Template re-rendered", Map.of("signal", signal), "",
                false, "", "", "", 0, 0, "", 0, "", 0, "", signal, "Template re-rendered");
    }

    public static TaskEvent signaling(long time, String signal, String reason) {
        String display = "Task being sent signal " + signal + (reason.isEmpty() ? "" : ": " + reason);
        return new TaskEvent(TaskEventType.SIGNALING, time, display, Map.of("signal", signal), "", false, "", "",
                "", 0, 0, "", 0, "", 0, "", signal, reason);
    }

    public static TaskEvent waitingShutdownDelay(long time, Duration delay) {
        return of(TaskEventType.WAITING_SHUTDOWN_DELAY, time,
                "Waiting for shutdown_delay of " + GoDuration.format(delay) + " before killing the task.",
                Map.of("shutdown_delay", GoDuration.format(delay)));
    }

    /**
     * The allocation ran longer than its group's {@code max_run_duration} ({@code limit}) since it was created; the
     * display message is Nomad's ({@code allocation exceeded max_run_duration}). Does not fail the task.
     */
    public static TaskEvent maxRunDurationExceeded(long time, Duration limit, Duration actual) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("max_run_duration", GoDuration.format(limit));
        details.put("alloc_run_time", GoDuration.format(actual));
        return new TaskEvent(TaskEventType.MAX_RUN_DURATION_EXCEEDED, time, MAX_RUN_DURATION_MESSAGE, details, "",
                false, "", "", "", 0, 0, "", 0, "", 0, "", "", "");
    }

    /** Nomad's {@code AllocTimeoutReasonMaxRunDuration}. */
    public static final String MAX_RUN_DURATION_MESSAGE = "allocation exceeded max_run_duration";

    public static TaskEvent maxRuntimeExceeded(long time, Duration limit, Duration actual) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("max_runtime", GoDuration.format(limit));
        details.put("run_time", GoDuration.format(actual));
        return new TaskEvent(TaskEventType.MAX_RUNTIME_EXCEEDED, time,
                "Task exceeded max_runtime of " + GoDuration.format(limit) + " (ran " + GoDuration.format(actual)
                        + ")",
                details, "", true, "", "", "", 0, 0, "", 0, "", 0, "", "", "");
    }

    /**
     * The allocation was destroyed by client GC: its directory is gone, this record (every earlier event) stays.
     *
     * @param trigger the {@code GcReason} wire name (max allocs, interval, disk, inodes, manual)
     * @param policy the {@code gc_kill_policy} in force
     * @param gcKill the task's own {@code lifecycle.gc_kill}, or null when it has none
     */
    public static TaskEvent garbageCollected(long time, String trigger, String policy, Boolean gcKill) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("gc_trigger", trigger);
        details.put("gc_kill_policy", policy);
        if (gcKill != null) {
            details.put("gc_kill", gcKill.toString());
        }
        String display = "Allocation garbage collected by client (" + trigger + ", gc_kill_policy " + policy
                + (gcKill != null ? ", gc_kill = " + gcKill : "") + "); state and events kept";
        return of(TaskEventType.GARBAGE_COLLECTED, time, display, details);
    }

    /** A live task the restarted agent could not re-attach to: never a made-up exit code. */
    public static TaskEvent notRecovered(long time, String reason) {
        String display = "Agent restarted and could not re-attach to the task (" + reason
                + "); its exit is unknown";
        return new TaskEvent(TaskEventType.NOT_RECOVERED, time, display, Map.of("reason", reason), "", true, "",
                "", "", 0, 0, "", 0, "", 0, "", "", "");
    }

    private static TaskEvent with(TaskEvent e, String message) {
        return new TaskEvent(e.type(), e.time(), e.displayMessage(), e.details(), message, e.failsTask(),
                e.restartReason(), e.setupError(), e.driverError(), e.exitCode(), e.signal(), e.killReason(),
                e.killTimeout(), e.killError(), e.startDelay(), e.failedSibling(), e.taskSignal(),
                e.taskSignalReason());
    }
}
