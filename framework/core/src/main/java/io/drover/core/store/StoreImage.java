package io.drover.core.store;

import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The store's content while it is rebuilt from a snapshot and journals at open: records are applied in file
 * order, each checked against what came before (a delta for an unknown allocation, or one whose events do not
 * continue where the stored ones end, is corruption). Single-threaded.
 */
final class StoreImage {
    private final Map<String, AllocImage> allocs = new HashMap<>();
    private final Map<Long, Job> jobs = new HashMap<>();
    private final Map<String, Map<String, Map<String, String>>> handles = new HashMap<>();

    private static final class AllocImage {
        Job job;
        String name;
        String jobId;
        String taskGroup;
        Integer index;
        ClientStatus clientStatus;
        String clientDescription;
        DesiredStatus desiredStatus;
        String desiredDescription;
        Long createTime;
        Long modifyTime;
        io.drover.core.state.AllocatedResources resources;
        final Map<String, TaskImage> tasks = new LinkedHashMap<>();
    }

    private static final class TaskImage {
        Records.TaskFields fields;
        final ArrayList<TaskEvent> events = new ArrayList<>();
    }

    /** Applies one record read from {@code file} at {@code offset}. */
    void apply(Records.Rec r, Path file, long offset) throws StoreCorruptException {
        if (r.type() == null) {
            throw new StoreCorruptException(file, offset, "record without a type");
        }
        switch (r.type()) {
            case Records.ALLOC -> applyAlloc(r, file, offset);
            case Records.DELETE -> {
                allocs.remove(require(r.id(), file, offset));
                handles.remove(r.id());
            }
            case Records.HANDLE -> applyHandle(r, file, offset);
            case Records.JOB -> {
                if (r.jobRef() == null || r.job() == null) {
                    throw new StoreCorruptException(file, offset, "job record without its ref or job");
                }
                jobs.put(r.jobRef(), r.job());
            }
            default -> throw new StoreCorruptException(file, offset, "unexpected record type " + r.type());
        }
    }

    private void applyAlloc(Records.Rec r, Path file, long offset) throws StoreCorruptException {
        String id = require(r.id(), file, offset);
        AllocImage a;
        if (r.isFull()) {
            if (r.jobRef() == null || r.header() == null) {
                throw new StoreCorruptException(file, offset, "full record of allocation " + id + " lacks its job");
            }
            a = new AllocImage();
            allocs.put(id, a);
        } else {
            a = allocs.get(id);
            if (a == null) {
                throw new StoreCorruptException(file, offset, "change to unknown allocation " + id);
            }
        }
        if (r.jobRef() != null) {
            a.job = jobs.get(r.jobRef());
            if (a.job == null) {
                throw new StoreCorruptException(file, offset, "allocation " + id + " names unknown job "
                        + r.jobRef());
            }
        }
        Records.Header h = r.header();
        if (h != null) {
            a.name = h.name() != null ? h.name() : a.name;
            a.jobId = h.jobId() != null ? h.jobId() : a.jobId;
            a.taskGroup = h.taskGroup() != null ? h.taskGroup() : a.taskGroup;
            a.index = h.index() != null ? h.index() : a.index;
            a.clientStatus = h.clientStatus() != null ? h.clientStatus() : a.clientStatus;
            a.clientDescription = h.clientDescription() != null ? h.clientDescription() : a.clientDescription;
            a.desiredStatus = h.desiredStatus() != null ? h.desiredStatus() : a.desiredStatus;
            a.desiredDescription = h.desiredDescription() != null ? h.desiredDescription() : a.desiredDescription;
            a.createTime = h.createTime() != null ? h.createTime() : a.createTime;
            a.modifyTime = h.modifyTime() != null ? h.modifyTime() : a.modifyTime;
            a.resources = h.resources() != null ? h.resources() : a.resources;
        }
        if (a.name == null || a.jobId == null || a.taskGroup == null || a.index == null || a.clientStatus == null
                || a.clientDescription == null || a.desiredStatus == null || a.desiredDescription == null
                || a.createTime == null || a.modifyTime == null) {
            throw new StoreCorruptException(file, offset, "allocation " + id + " lacks header fields");
        }
        if (r.tasks() == null) {
            return;
        }
        for (Map.Entry<String, Records.TaskDelta> e : r.tasks().entrySet()) {
            Records.TaskDelta d = e.getValue();
            TaskImage t = a.tasks.computeIfAbsent(e.getKey(), k -> new TaskImage());
            if (d.from() != t.events.size()) {
                throw new StoreCorruptException(file, offset, "events of task " + e.getKey() + " of allocation "
                        + id + " continue at " + d.from() + " but " + t.events.size() + " are stored");
            }
            if (d.fields() != null) {
                t.fields = d.fields();
            }
            if (t.fields == null || t.fields.state() == null) {
                throw new StoreCorruptException(file, offset, "task " + e.getKey() + " of allocation " + id
                        + " lacks its state");
            }
            if (d.events() != null) {
                t.events.addAll(d.events());
            }
        }
    }

    private void applyHandle(Records.Rec r, Path file, long offset) throws StoreCorruptException {
        String id = require(r.id(), file, offset);
        String task = require(r.task(), file, offset);
        if (r.handle() == null || r.handle().isEmpty()) {
            Map<String, Map<String, String>> of = handles.get(id);
            if (of != null) {
                of.remove(task);
                if (of.isEmpty()) {
                    handles.remove(id);
                }
            }
        } else {
            handles.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(task, Map.copyOf(r.handle()));
        }
    }

    private static String require(String v, Path file, long offset) throws StoreCorruptException {
        if (v == null) {
            throw new StoreCorruptException(file, offset, "record lacks a required field");
        }
        return v;
    }

    /** The allocations as immutable states. */
    Map<String, AllocationState> allocations() {
        Map<String, AllocationState> out = new HashMap<>(allocs.size() * 2);
        for (Map.Entry<String, AllocImage> e : allocs.entrySet()) {
            AllocImage a = e.getValue();
            Map<String, TaskState> states = new LinkedHashMap<>();
            for (Map.Entry<String, TaskImage> t : a.tasks.entrySet()) {
                states.put(t.getKey(), t.getValue().fields.with(t.getValue().events));
            }
            out.put(e.getKey(), new AllocationState(e.getKey(), a.name, a.jobId, a.taskGroup, a.index,
                    a.clientStatus, a.clientDescription, a.desiredStatus, a.desiredDescription, a.createTime,
                    a.modifyTime, states, a.job, a.resources));
        }
        return out;
    }

    /** Jobs by ref. */
    Map<Long, Job> jobs() {
        return jobs;
    }

    /** Driver handles: allocation ID → task → handle. */
    Map<String, Map<String, Map<String, String>>> handles() {
        return handles;
    }
}
