package io.drover.agent.http;

import io.drover.agent.JobRegistry;
import io.drover.core.spec.Job;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.ClientStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jobs in Nomad's API JSON shapes ({@code JobListStub}, {@code Job}): the subset of Nomad's fields Drover has,
 * with Nomad's names and units (durations in nanoseconds). Pure.
 */
final class JobJson {
    private JobJson() {}

    /** Nomad's {@code JobListStub}: ID, Name, Type, Status, Stop, Version, times and {@code JobSummary}. */
    static Map<String, Object> stub(JobRegistry registry, JobRegistry.Entry e) {
        Map<String, Object> m = header(registry, e);
        Map<ClientStatus, Long> counts = registry.summary(e);
        // Summary[group], as Nomad's clients read it; groups of the current version first, then older ones;
        // the same allocations a listing shows (only those on disk)
        Map<String, Map<String, Long>> groups = new LinkedHashMap<>();
        e.job().groups().forEach(g -> groups.put(g.name(), emptySummary()));
        registry.listedAllocations(e).forEach(a -> groups.computeIfAbsent(a.taskGroup(), k -> emptySummary())
                .merge(summaryKey(a.clientStatus()), 1L, Long::sum));
        m.put("Datacenters", e.job().datacenters());
        m.put("JobSummary", summary(e, groups));
        Map<String, Long> allocs = new LinkedHashMap<>();
        allocs.put("Pending", counts.get(ClientStatus.PENDING));
        allocs.put("Running", counts.get(ClientStatus.RUNNING));
        allocs.put("Complete", counts.get(ClientStatus.COMPLETE));
        allocs.put("Failed", counts.get(ClientStatus.FAILED));
        m.put("Allocations", allocs);
        ScheduleJson.put(m, registry, e, e.job());
        return m;
    }

    /** Nomad's {@code Job}: the stub's header plus {@code Datacenters} and {@code TaskGroups}. */
    static Map<String, Object> full(JobRegistry registry, JobRegistry.Entry e) {
        return full(registry, e, e.job(), e.version());
    }

    /** One version of the job: {@code job} and {@code version} as registered, the rest from the entry. */
    static Map<String, Object> full(JobRegistry registry, JobRegistry.Entry e, Job job, int version) {
        Map<String, Object> m = header(registry, e);
        m.put("Version", version);
        m.put("Datacenters", job.datacenters());
        m.put("Region", job.runtime().region());
        m.put("Namespace", job.runtime().namespace());
        m.put("Priority", job.priority());
        m.put("Constraints", constraints(job, null, null));
        m.putAll(job.cluster().fields()); // Update, Reschedule, Migrate, Affinities, Spreads, AllAtOnce, NodePool
        m.put("Meta", new LinkedHashMap<>(job.runtime().meta()));
        m.put("TaskGroups", job.groups().stream().map(g -> group(job, g)).toList());
        ScheduleJson.put(m, registry, e, job);
        return m;
    }

    private static Map<String, Object> header(JobRegistry registry, JobRegistry.Entry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ID", e.job().id());
        m.put("Name", e.job().name());
        m.put("Namespace", e.job().runtime().namespace());
        m.put("Region", e.job().runtime().region());
        m.put("ParentID", "");
        m.put("Type", e.job().type().wireName());
        m.put("Priority", e.job().priority());
        m.put("NodePool", "default");
        m.put("Status", registry.status(e));
        m.put("StatusDescription", "");
        m.put("Stop", e.stopped());
        m.put("Stable", false);
        m.put("Version", e.version());
        m.put("SubmitTime", e.submitTime());
        m.put("CreateIndex", e.createIndex());
        m.put("ModifyIndex", e.modifyIndex());
        m.put("JobModifyIndex", e.jobModifyIndex());
        return m;
    }

    /** Nomad's {@code JobSummary}: per group, its allocations by state (those on disk). */
    static Map<String, Object> summary(JobRegistry registry, JobRegistry.Entry e) {
        Map<String, Map<String, Long>> groups = new LinkedHashMap<>();
        e.job().groups().forEach(g -> groups.put(g.name(), emptySummary()));
        registry.listedAllocations(e).forEach(a -> groups.computeIfAbsent(a.taskGroup(), k -> emptySummary())
                .merge(summaryKey(a.clientStatus()), 1L, Long::sum));
        Map<String, Object> summary = summary(e, groups);
        if (e.job().launch().parent()) {
            summary.put("Children", ScheduleJson.children(registry, e.job().id()));
        }
        return summary;
    }

    private static Map<String, Object> summary(JobRegistry.Entry e, Map<String, Map<String, Long>> groups) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("JobID", e.job().id());
        summary.put("Namespace", "default");
        summary.put("Summary", groups);
        Map<String, Long> children = new LinkedHashMap<>();
        children.put("Pending", 0L);
        children.put("Running", 0L);
        children.put("Dead", 0L);
        summary.put("Children", children);
        summary.put("CreateIndex", e.createIndex());
        summary.put("ModifyIndex", e.modifyIndex());
        return summary;
    }

    private static Map<String, Long> emptySummary() {
        Map<String, Long> s = new LinkedHashMap<>();
        for (String k : List.of("Queued", "Starting", "Running", "Complete", "Failed", "Lost", "Unknown")) {
            s.put(k, 0L);
        }
        return s;
    }

    private static String summaryKey(ClientStatus status) {
        return switch (status) {
            case PENDING -> "Starting";
            case RUNNING -> "Running";
            case COMPLETE -> "Complete";
            case FAILED -> "Failed";
        };
    }

    private static Map<String, Object> group(Job job, TaskGroup g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Name", g.name());
        m.put("Count", g.count());
        m.put("Constraints", constraints(job, g.name(), null));
        m.put("RestartPolicy", restart(g.restart()));
        m.put("MaxRuntime", nanos(g.maxRuntime()));
        m.put("Networks", RuntimeJson.networks(g.runtime().network()));
        m.put("Volumes", RuntimeJson.volumes(g.runtime().volumes()));
        m.putAll(g.cluster().fields()); // Update, ReschedulePolicy, Migrate, Scaling, EphemeralDisk, Affinities...
        m.put("Meta", new LinkedHashMap<>(g.runtime().meta()));
        m.put("Tasks", g.tasks().stream().map(t -> task(job, g, t)).toList());
        return m;
    }

    /** Nomad's {@code Constraints} of one level: the job's (group null), a group's own, or a task's. */
    private static List<Map<String, Object>> constraints(Job job, String group, String task) {
        return job.constraints().stream()
                .filter(c -> java.util.Objects.equals(c.group(), group) && java.util.Objects.equals(c.task(), task))
                .map(c -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("LTarget", c.lTarget());
                    m.put("RTarget", c.rTarget());
                    m.put("Operand", c.operand());
                    return m;
                }).toList();
    }

    private static Map<String, Object> resources(io.drover.core.spec.Resources r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("CPU", r.cpu());
        m.put("Cores", r.cores());
        m.put("MemoryMB", r.memoryMb());
        m.put("MemoryMaxMB", r.memoryMaxMb());
        if (r.diskMb() > 0) {
            m.put("DiskMB", r.diskMb());
        }
        return m;
    }

    private static Map<String, Object> task(Job job, TaskGroup g, Task t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Name", t.name());
        m.put("Driver", t.driver());
        m.put("Config", t.config());
        m.put("Env", t.env());
        m.put("Leader", t.leader());
        if (t.lifecycle() != null) {
            m.put("Lifecycle", Map.of("Hook", t.lifecycle().hook().wireName(), "Sidecar", t.lifecycle().sidecar()));
        } else {
            m.put("Lifecycle", null);
        }
        m.put("KillTimeout", nanos(t.killTimeout()));
        m.put("KillSignal", t.killSignal());
        m.put("ShutdownDelay", nanos(t.shutdownDelay()));
        m.put("MaxRuntime", nanos(t.maxRuntime()));
        m.put("RestartPolicy", restart(t.restart()));
        if (t.logs() != null) {
            m.put("LogConfig", Map.of("MaxFiles", t.logs().maxFiles(), "MaxFileSizeMB", t.logs().maxFileSizeMb()));
        }
        m.put("Constraints", constraints(job, g.name(), t.name()));
        m.put("Resources", resources(t.runtime().resources()));
        m.put("Meta", new LinkedHashMap<>(t.runtime().meta()));
        m.put("Artifacts", RuntimeJson.artifacts(t.runtime().artifacts()));
        m.put("Templates", RuntimeJson.templates(t.runtime().templates()));
        m.put("VolumeMounts", RuntimeJson.volumeMounts(t.runtime().volumeMounts()));
        m.putAll(t.cluster().fields()); // Affinities, Identities, User
        return m;
    }

    private static Map<String, Object> restart(RestartPolicy p) {
        if (p == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Attempts", p.attempts());
        m.put("Interval", nanos(p.interval()));
        m.put("Delay", nanos(p.delay()));
        m.put("Mode", p.mode().wireName());
        return m;
    }

    private static Long nanos(Duration d) {
        return d == null ? null : d.toNanos();
    }
}
