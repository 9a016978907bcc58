package io.drover.core.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An allocation in Nomad's JSON shape: immutable snapshot, replaced by the engine on every change.
 *
 * @param name {@code job.group[index]}
 * @param createTime unix nanoseconds
 * @param modifyTime unix nanoseconds
 * @param taskStates one entry per task of the group, in declaration order
 * @param job the job the allocation runs (not serialised; Nomad's field is too large to print)
 * @param allocatedResources its ports, as Nomad's {@code AllocatedResources}; null when its group has no network
 */
@JsonPropertyOrder({"ID", "Name", "JobID", "TaskGroup", "DesiredStatus", "DesiredDescription", "ClientStatus",
        "ClientDescription", "CreateTime", "ModifyTime", "TaskStates", "AllocatedResources"})
public record AllocationState(
        @JsonProperty("ID") String id,
        @JsonProperty("Name") String name,
        @JsonProperty("JobID") String jobId,
        @JsonProperty("TaskGroup") String taskGroup,
        @JsonIgnore int index,
        @JsonProperty("ClientStatus") ClientStatus clientStatus,
        @JsonProperty("ClientDescription") String clientDescription,
        @JsonProperty("DesiredStatus") DesiredStatus desiredStatus,
        @JsonProperty("DesiredDescription") String desiredDescription,
        @JsonProperty("CreateTime") long createTime,
        @JsonProperty("ModifyTime") long modifyTime,
        @JsonProperty("TaskStates") Map<String, TaskState> taskStates,
        @JsonIgnore Job job,
        @JsonProperty("AllocatedResources") @com.fasterxml.jackson.annotation.JsonInclude(
                com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) AllocatedResources allocatedResources) {

    public AllocationState {
        taskStates = Collections.unmodifiableMap(new LinkedHashMap<>(taskStates));
        allocatedResources = allocatedResources == null || allocatedResources.empty() ? null : allocatedResources;
    }

    /** An allocation without a group network (no {@code AllocatedResources} in its JSON). */
    public AllocationState(String id, String name, String jobId, String taskGroup, int index,
            ClientStatus clientStatus, String clientDescription, DesiredStatus desiredStatus,
            String desiredDescription, long createTime, long modifyTime, Map<String, TaskState> taskStates,
            Job job) {
        this(id, name, jobId, taskGroup, index, clientStatus, clientDescription, desiredStatus, desiredDescription,
                createTime, modifyTime, taskStates, job, null);
    }

    /** What the allocation was given: its ports ({@link AllocatedResources#NONE} when its group has no network). */
    @JsonIgnore
    public AllocatedResources resources() {
        return allocatedResources == null ? AllocatedResources.NONE : allocatedResources;
    }

    @JsonIgnore
    public TaskGroup group() {
        return job.group(taskGroup).orElseThrow();
    }

    @JsonIgnore
    public boolean terminal() {
        return clientStatus.terminal();
    }

    /**
     * Unix nanos when client GC destroyed the allocation (its {@code Garbage Collected} event), -1 when it was
     * not. Derived from the events, so it survives an agent restart.
     */
    @JsonIgnore
    public long destroyedAt() {
        for (TaskState t : taskStates.values()) {
            for (int i = t.events().size() - 1; i >= 0; i--) {
                var e = t.events().get(i);
                if (e.type() == io.drover.core.event.TaskEventType.GARBAGE_COLLECTED) {
                    return e.time();
                }
            }
        }
        return -1;
    }

    /** Unix nanos when it became terminal (its last task's FinishedAt), -1 while it is live. */
    @JsonIgnore
    public long terminalAt() {
        if (!terminal()) {
            return -1;
        }
        long last = createTime;
        for (TaskState t : taskStates.values()) {
            if (t.finishedAt() != null) {
                last = Math.max(last, io.drover.core.time.Nanos.of(t.finishedAt()));
            }
        }
        return last;
    }
}
