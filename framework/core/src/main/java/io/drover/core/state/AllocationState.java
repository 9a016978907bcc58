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
 */
@JsonPropertyOrder({"ID", "Name", "JobID", "TaskGroup", "DesiredStatus", "DesiredDescription", "ClientStatus",
        "ClientDescription", "CreateTime", "ModifyTime", "TaskStates"})
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
        @JsonIgnore Job job) {

    public AllocationState {
        taskStates = Collections.unmodifiableMap(new LinkedHashMap<>(taskStates));
    }

    @JsonIgnore
    public TaskGroup group() {
        return job.group(taskGroup).orElseThrow();
    }

    @JsonIgnore
    public boolean terminal() {
        return clientStatus.terminal();
    }
}
