package io.drover.core.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Job;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The JSON payloads inside the store's frames. Absent (null) fields mean "unchanged". */
final class Records {
    private Records() {}

    static final String ALLOC = "A";
    static final String DELETE = "D";
    static final String HANDLE = "H";
    static final String JOB = "J";
    static final String SNAPSHOT_START = "S";
    static final String SNAPSHOT_END = "E";

    /**
     * One record. {@code A}: an allocation version ({@code full}: replaces the allocation, carries its job, all
     * header fields and every task with all events; else a delta against the previous version). {@code D}: an
     * allocation removed. {@code H}: a task's driver handle (empty: removed). {@code S}/{@code E}: first and last
     * record of a snapshot; {@code J}: a job that later allocation records name by {@code ref} (each distinct job is
     * written once per file, not once per allocation) ({@code gen}: the last journal generation it covers; {@code count}: records between).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Rec(
            @JsonProperty("t") String type,
            @JsonProperty("id") String id,
            @JsonProperty("full") Boolean full,
            @JsonProperty("job") Job job,
            @JsonProperty("ref") Long jobRef,
            @JsonProperty("h") Header header,
            @JsonProperty("tasks") Map<String, TaskDelta> tasks,
            @JsonProperty("task") String task,
            @JsonProperty("handle") Map<String, String> handle,
            @JsonProperty("gen") Long gen,
            @JsonProperty("count") Long count) {

        static Rec alloc(String id, boolean full, Long jobRef, Header h, Map<String, TaskDelta> tasks) {
            return new Rec(ALLOC, id, full ? Boolean.TRUE : null, null, jobRef, h, tasks, null, null, null, null);
        }

        static Rec job(long ref, Job job) {
            return new Rec(JOB, null, null, job, ref, null, null, null, null, null, null);
        }

        static Rec delete(String id) {
            return new Rec(DELETE, id, null, null, null, null, null, null, null, null, null);
        }

        static Rec handle(String id, String task, Map<String, String> handle) {
            return new Rec(HANDLE, id, null, null, null, null, null, task, handle, null, null);
        }

        static Rec snapshotStart(long gen) {
            return new Rec(SNAPSHOT_START, null, null, null, null, null, null, null, null, gen, null);
        }

        static Rec snapshotEnd(long count) {
            return new Rec(SNAPSHOT_END, null, null, null, null, null, null, null, null, null, count);
        }

        boolean isFull() {
            return Boolean.TRUE.equals(full);
        }
    }

    /** Allocation header fields; null = unchanged since the previous version. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Header(
            @JsonProperty("name") String name,
            @JsonProperty("job") String jobId,
            @JsonProperty("group") String taskGroup,
            @JsonProperty("index") Integer index,
            @JsonProperty("cs") ClientStatus clientStatus,
            @JsonProperty("cd") String clientDescription,
            @JsonProperty("ds") DesiredStatus desiredStatus,
            @JsonProperty("dd") String desiredDescription,
            @JsonProperty("ct") Long createTime,
            @JsonProperty("mt") Long modifyTime,
            @JsonProperty("res") io.drover.core.state.AllocatedResources resources) {
        /** Without resources (an allocation whose group has no network, or whose ports did not change). */
        Header(String name, String jobId, String taskGroup, Integer index, ClientStatus clientStatus,
                String clientDescription, DesiredStatus desiredStatus, String desiredDescription, Long createTime,
                Long modifyTime) {
            this(name, jobId, taskGroup, index, clientStatus, clientDescription, desiredStatus, desiredDescription,
                    createTime, modifyTime, null);
        }

        boolean empty() {
            return name == null && jobId == null && taskGroup == null && index == null && clientStatus == null
                    && clientDescription == null && desiredStatus == null && desiredDescription == null
                    && createTime == null && modifyTime == null && resources == null;
        }
    }

    /**
     * A task's change: {@code from} is how many of its events earlier records hold (replay checks it),
     * {@code fields} its non-event fields when they changed, {@code events} the events appended since.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TaskDelta(
            @JsonProperty("from") int from,
            @JsonProperty("f") TaskFields fields,
            @JsonProperty("ev") List<TaskEvent> events) {}

    /** A task state without its events; instants as unix nanoseconds, null meaning "never" (written as null). */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record TaskFields(
            @JsonProperty("state") TaskLifeState state,
            @JsonProperty("failed") boolean failed,
            @JsonProperty("restarts") int restarts,
            @JsonProperty("lastRestart") Long lastRestart,
            @JsonProperty("startedAt") Long startedAt,
            @JsonProperty("finishedAt") Long finishedAt) {

        static TaskFields of(TaskState s) {
            return new TaskFields(s.state(), s.failed(), s.restarts(), nanos(s.lastRestart()), nanos(s.startedAt()),
                    nanos(s.finishedAt()));
        }

        TaskState with(List<TaskEvent> events) {
            return new TaskState(state, failed, restarts, instant(lastRestart), instant(startedAt),
                    instant(finishedAt), events);
        }

        private static Long nanos(Instant i) {
            return i == null ? null : Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
        }

        private static Instant instant(Long nanos) {
            return nanos == null ? null : Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                    Math.floorMod(nanos, 1_000_000_000L));
        }
    }
}
