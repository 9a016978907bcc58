package io.drover.core.spec.parse;

import io.drover.core.spec.DispatchPayload;
import io.drover.core.spec.JobLaunch;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Parameterized;
import io.drover.core.spec.PayloadRule;
import io.drover.core.spec.Periodic;
import io.drover.core.spec.TaskRuntime;
import io.drover.core.spec.cron.CronException;
import io.drover.core.spec.cron.CronExpression;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Problems;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps the keys that make a job a parent of launched children: the job's {@code periodic} and
 * {@code parameterized} blocks and a task's {@code dispatch_payload}, with Nomad's checks and words
 * ({@code PeriodicConfig.Validate}, {@code ParameterizedJobConfig.Validate}, {@code Job.Validate}), for
 * {@link JobMapper}. Pure; every problem is recorded in the {@link Problems}.
 */
final class ScheduleMapper {
    /** The job-level keys this adds. */
    static final List<String> JOB_KEYS = List.of("periodic", "parameterized");
    /** The task-level keys this adds. */
    static final List<String> TASK_KEYS = List.of("dispatch_payload");
    private static final List<String> PERIODIC_KEYS =
            List.of("cron", "crons", "time_zone", "prohibit_overlap", "enabled", "spec_type");
    private static final List<String> PARAMETERIZED_KEYS = List.of("payload", "meta_required", "meta_optional");

    /** Nomad's API spelling of these keys ({@link JsonJobShape} adds them to its vocabulary). */
    static final Map<String, String> JSON = Map.ofEntries(Map.entry("periodic", "Periodic"),
            Map.entry("cron", "Spec"), Map.entry("crons", "Specs"), Map.entry("time_zone", "TimeZone"),
            Map.entry("prohibit_overlap", "ProhibitOverlap"), Map.entry("enabled", "Enabled"),
            Map.entry("spec_type", "SpecType"), Map.entry("parameterized", "ParameterizedJob"),
            Map.entry("payload", "Payload"), Map.entry("meta_required", "MetaRequired"),
            Map.entry("meta_optional", "MetaOptional"), Map.entry("dispatch_payload", "DispatchPayload"),
            Map.entry("file", "File"));

    private ScheduleMapper() {}

    /** The job's {@code periodic} and {@code parameterized} blocks; {@link JobLaunch#NONE} when neither. */
    static JobLaunch job(MapReader job, JobType type, Problems p) {
        Periodic periodic = periodic(job.child("periodic", PERIODIC_KEYS, List.of(), p), p);
        Parameterized parameterized = parameterized(job.child("parameterized", PARAMETERIZED_KEYS, List.of(), p), p);
        boolean batch = type == JobType.BATCH || type == JobType.SYSBATCH;
        if (periodic != null && !batch) {
            p.add(job.problem("periodic", "Periodic can only be used with \"batch\" or \"sysbatch\" scheduler"));
        }
        if (parameterized != null && !batch) {
            p.add(job.problem("parameterized",
                    "Parameterized job can only be used with \"batch\" or \"sysbatch\" scheduler"));
        }
        // both: as in Nomad, a parameterized parent whose dispatched children are periodic (JobLaunch)
        return periodic == null && parameterized == null ? JobLaunch.NONE
                : new JobLaunch(periodic, parameterized, false);
    }

    private static Periodic periodic(MapReader r, Problems p) {
        if (r == null) {
            return null;
        }
        int before = p.size();
        String cron = p.read(() -> r.string("cron", null), null);
        List<String> crons = p.read(() -> r.strings("crons"), null);
        String zone = p.read(() -> r.string("time_zone", "UTC"), "UTC");
        boolean overlap = p.read(() -> r.bool("prohibit_overlap", false), false);
        boolean enabled = p.read(() -> r.bool("enabled", true), true);
        String specType = p.read(() -> r.string("spec_type", "cron"), "cron");
        if (!specType.equals("cron")) {
            p.add(r.problem("spec_type", "Unknown periodic specification type \"" + specType + "\" (allowed: cron)"));
        }
        if (cron != null && crons != null) {
            p.add(r.problem("crons", "Only cron or crons may be used"));
        }
        List<String> specs = cron != null ? List.of(cron) : crons != null ? crons : List.of();
        if (specs.isEmpty() && p.size() == before) {
            p.add(new io.drover.core.spec.parse.tree.TreeProblem(r.line(), r.path(),
                    "Must specify a spec (cron = \"*/15 * * * *\")"));
        }
        String specKey = cron != null ? "cron" : "crons";
        for (String spec : specs) {
            try {
                CronExpression.parse(spec);
            } catch (CronException e) {
                p.add(r.problem(specKey, "Invalid cron spec \"" + spec + "\": " + e.getMessage()));
            }
        }
        try {
            ZoneId.of(zone);
        } catch (DateTimeException e) {
            p.add(r.problem("time_zone", "Invalid time zone \"" + zone + "\" (an IANA zone such as "
                    + "\"America/New_York\" or \"UTC\")"));
        }
        return p.size() != before ? null : new Periodic(specs, zone, overlap, enabled);
    }

    private static Parameterized parameterized(MapReader r, Problems p) {
        if (r == null) {
            return null;
        }
        int before = p.size();
        String payload = p.read(() -> r.string("payload", "optional"), "optional");
        PayloadRule rule = PayloadRule.fromWire(payload).orElse(null);
        if (rule == null) {
            p.add(r.problem("payload", "Unknown payload requirement: \"" + payload
                    + "\" (allowed: optional, required, forbidden)"));
        }
        List<String> required = p.read(() -> r.strings("meta_required"), null);
        List<String> optional = p.read(() -> r.strings("meta_optional"), null);
        required = required == null ? List.of() : required;
        optional = optional == null ? List.of() : optional;
        Set<String> both = new LinkedHashSet<>(required);
        both.retainAll(optional);
        if (!both.isEmpty()) {
            p.add(r.problem("meta_optional", "Required and optional meta keys should be disjoint. Following keys "
                    + "exist in both: " + new ArrayList<>(both)));
        }
        return p.size() != before ? null : new Parameterized(rule, required, optional);
    }

    /** {@code runtime} with the task's {@code dispatch_payload}, when it has one. */
    static TaskRuntime task(MapReader task, TaskRuntime runtime, Problems p) {
        MapReader r = task.child("dispatch_payload", List.of("file"), List.of(), p);
        if (r == null) {
            return runtime;
        }
        String file = p.read(() -> r.string("file", null), null);
        if (file == null) {
            if (!r.has("file")) {
                p.add(r.problem("file", "is required: the file, inside the task's local/ directory, the dispatch "
                        + "payload is written to"));
            }
            return runtime;
        }
        String bad = fileProblem(file);
        if (bad != null) {
            p.add(r.problem("file", bad));
            return runtime;
        }
        return runtime.withDispatchPayload(new DispatchPayload(file, null));
    }

    /** Nomad: "dispatch_payload file escapes the allocation directory"; Drover keeps it inside local/. */
    private static String fileProblem(String file) {
        if (file.isEmpty()) {
            return "must not be empty";
        }
        if (file.indexOf('\0') >= 0) {
            return "must not contain NUL";
        }
        Path local = Path.of("/local");
        Path to;
        try {
            to = local.resolve(file).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return "is not a valid path";
        }
        if (file.startsWith("/") || !to.startsWith(local) || to.equals(local)) {
            return "\"" + file + "\" escapes the task's local/ directory (the payload is written inside it)";
        }
        return null;
    }
}
