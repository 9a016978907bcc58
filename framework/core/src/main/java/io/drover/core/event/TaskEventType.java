package io.drover.core.event;

import com.fasterxml.jackson.annotation.JsonValue;

/** Event types, carrying Nomad's wire names (plus Drover's own at the end). */
public enum TaskEventType {
    RECEIVED("Received"),
    TASK_SETUP("Task Setup"),
    SETUP_FAILURE("Setup Failure"),
    STARTED("Started"),
    TERMINATED("Terminated"),
    KILLING("Killing"),
    KILLED("Killed"),
    RESTARTING("Restarting"),
    NOT_RESTARTING("Not Restarting"),
    DRIVER_FAILURE("Driver Failure"),
    SIBLING_FAILED("Sibling Task Failed"),
    LEADER_DEAD("Leader Task Dead"),
    MAIN_DEAD("Main Tasks Dead"),
    SIGNALING("Signaling"),
    WAITING_SHUTDOWN_DELAY("Waiting for shutdown delay"),
    DRIVER_MESSAGE("Driver"),
    DOWNLOADING_ARTIFACTS("Downloading Artifacts"),
    ARTIFACT_DOWNLOAD_FAILED("Failed Artifact Download"),
    /** A prestart hook failed (Nomad's {@code TaskHookFailed}: a host volume missing, a driver that mounts none). */
    TASK_HOOK_FAILED("Task hook failed"),
    /** A restart that is not a failure (a template with change_mode restart re-rendered). */
    RESTART_SIGNALED("Restart Signaled"),
    /** A hook's failure that does not stop the task by itself (a template's change_script failed). */
    HOOK_FAILED("Task hook failed"),
    /** A hook's message (a template's change_script ran). */
    HOOK_MESSAGE("Task hook message"),
    // Drover's own:
    MAX_RUNTIME_EXCEEDED("Max Runtime Exceeded"),
    /** The allocation's group {@code max_run_duration} passed: every live task is stopped (Nomad's alloc timeout). */
    MAX_RUN_DURATION_EXCEEDED("Max Run Duration Exceeded"),
    /** The agent restarted and could not re-attach to a task that was live: its end is unknown. */
    NOT_RECOVERED("Not Recovered"),
    GARBAGE_COLLECTED("Garbage Collected");

    private final String wireName;

    TaskEventType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static TaskEventType fromWire(String name) {
        for (TaskEventType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown event type " + name);
    }
}
