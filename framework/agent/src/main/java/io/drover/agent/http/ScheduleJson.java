package io.drover.agent.http;

import io.drover.agent.JobRegistry;
import io.drover.core.spec.Job;
import io.drover.core.spec.Parameterized;
import io.drover.core.spec.Periodic;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job JSON fields of periodic and parameterized jobs and their children, in Nomad's shapes:
 * {@code ParentID}, {@code Periodic}, {@code ParameterizedJob}, {@code Dispatched}, and a parent's
 * {@code JobSummary.Children} (its children by status). Added over what {@link JobJson} writes. Pure.
 */
final class ScheduleJson {
    private ScheduleJson() {}

    /** Adds the fields to {@code m}, a job or job stub written by {@link JobJson} for {@code e}. */
    @SuppressWarnings("unchecked")
    static void put(Map<String, Object> m, JobRegistry registry, JobRegistry.Entry e, Job job) {
        m.put("ParentID", job.runtime().parentId()); // replaces JobJson's "", keeps its place
        m.put("Periodic", periodic(job.launch().periodic()));
        m.put("ParameterizedJob", parameterized(job.launch().parameterized()));
        m.put("Dispatched", job.launch().dispatched());
        if (job.launch().parent() && m.get("JobSummary") instanceof Map<?, ?> summary) {
            ((Map<String, Object>) summary).put("Children", children(registry, e.job().id()));
        }
    }

    /** Nomad's {@code JobChildrenSummary}. */
    static Map<String, Long> children(JobRegistry registry, String parentId) {
        long running = 0;
        long dead = 0;
        for (JobRegistry.Entry c : registry.children(parentId)) {
            if (registry.status(c).equals("running")) {
                running++;
            } else {
                dead++;
            }
        }
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("Pending", 0L);
        out.put("Running", running);
        out.put("Dead", dead);
        return out;
    }

    private static Map<String, Object> periodic(Periodic p) {
        if (p == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Enabled", p.enabled());
        m.put("Spec", p.specs().size() == 1 ? p.specs().get(0) : "");
        m.put("Specs", p.specs().size() == 1 ? null : p.specs());
        m.put("SpecType", "cron");
        m.put("ProhibitOverlap", p.prohibitOverlap());
        m.put("TimeZone", p.timeZone());
        return m;
    }

    private static Map<String, Object> parameterized(Parameterized p) {
        if (p == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Payload", p.payload().wireName());
        m.put("MetaRequired", p.metaRequired());
        m.put("MetaOptional", p.metaOptional());
        return m;
    }
}
