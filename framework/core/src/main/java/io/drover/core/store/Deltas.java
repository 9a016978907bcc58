package io.drover.core.store;

import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Builds allocation records: the full state, or what changed between two versions. Pure functions. */
final class Deltas {
    private Deltas() {}

    /** Supplies the reference of a job (writing the job first when it is new). */
    interface RefOf {
        long ref(Job job) throws IOException;
    }

    /** A record that replaces the allocation: job, every header field, every task with all its events. */
    static Records.Rec full(AllocationState s, long jobRef) {
        Map<String, Records.TaskDelta> tasks = new LinkedHashMap<>();
        for (Map.Entry<String, TaskState> e : s.taskStates().entrySet()) {
            TaskState t = e.getValue();
            tasks.put(e.getKey(), new Records.TaskDelta(0, Records.TaskFields.of(t),
                    t.events().isEmpty() ? null : t.events()));
        }
        Records.Header h = new Records.Header(s.name(), s.jobId(), s.taskGroup(), s.index(), s.clientStatus(),
                s.clientDescription(), s.desiredStatus(), s.desiredDescription(), s.createTime(), s.modifyTime(),
                s.allocatedResources());
        return Records.Rec.alloc(s.id(), true, jobRef, h, tasks);
    }

    /**
     * What changed from {@code base} to {@code next}: changed header fields, changed task fields and the events
     * appended since {@code base}. Falls back to {@link #full} when {@code base} is null, or when {@code next}
     * is not an extension of it (a task vanished or its events were rewritten), so a record is always correct.
     * Returns null when nothing changed.
     */
    static Records.Rec delta(AllocationState base, AllocationState next, RefOf refs) throws IOException {
        if (base == null || !next.taskStates().keySet().containsAll(base.taskStates().keySet())) {
            return full(next, refs.ref(next.job()));
        }
        Map<String, Records.TaskDelta> tasks = new LinkedHashMap<>();
        for (Map.Entry<String, TaskState> e : next.taskStates().entrySet()) {
            TaskState now = e.getValue();
            TaskState was = base.taskStates().get(e.getKey());
            if (was == null) {
                tasks.put(e.getKey(), new Records.TaskDelta(0, Records.TaskFields.of(now),
                        now.events().isEmpty() ? null : now.events()));
                continue;
            }
            if (!extendsEvents(was.events(), now.events())) {
                return full(next, refs.ref(next.job()));
            }
            Records.TaskFields fields = Records.TaskFields.of(now);
            boolean fieldsChanged = !fields.equals(Records.TaskFields.of(was));
            int from = was.events().size();
            List<TaskEvent> added = now.events().subList(from, now.events().size());
            if (fieldsChanged || !added.isEmpty()) {
                tasks.put(e.getKey(), new Records.TaskDelta(from, fieldsChanged ? fields : null,
                        added.isEmpty() ? null : added));
            }
        }
        Records.Header h = new Records.Header(
                changed(base.name(), next.name()),
                changed(base.jobId(), next.jobId()),
                changed(base.taskGroup(), next.taskGroup()),
                base.index() == next.index() ? null : next.index(),
                changed(base.clientStatus(), next.clientStatus()),
                changed(base.clientDescription(), next.clientDescription()),
                changed(base.desiredStatus(), next.desiredStatus()),
                changed(base.desiredDescription(), next.desiredDescription()),
                base.createTime() == next.createTime() ? null : next.createTime(),
                base.modifyTime() == next.modifyTime() ? null : next.modifyTime(),
                java.util.Objects.equals(base.allocatedResources(), next.allocatedResources()) ? null
                        : next.resources());
        boolean jobChanged = base.job() != next.job() && !base.job().equals(next.job());
        if (h.empty() && tasks.isEmpty() && !jobChanged) {
            return null;
        }
        return Records.Rec.alloc(next.id(), false, jobChanged ? refs.ref(next.job()) : null, h.empty() ? null : h,
                tasks.isEmpty() ? null : tasks);
    }

    /**
     * Whether {@code now} starts with {@code was}. Checks the size and the last shared event (the engine
     * shares event objects between versions, so this is usually an identity check), not every element.
     */
    static boolean extendsEvents(List<TaskEvent> was, List<TaskEvent> now) {
        if (now.size() < was.size()) {
            return false;
        }
        if (was.isEmpty()) {
            return true;
        }
        int last = was.size() - 1;
        return Objects.equals(was.get(last), now.get(last));
    }

    private static <T> T changed(T was, T now) {
        return Objects.equals(was, now) ? null : Objects.requireNonNull(now, "allocation header field is null");
    }
}
