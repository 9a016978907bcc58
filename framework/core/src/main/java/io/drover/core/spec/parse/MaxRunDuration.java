package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Problems;
import java.time.Duration;
import java.util.Map;

/**
 * A group's {@code max_run_duration} (Nomad's {@code TaskGroup.MaxRunDuration}): a positive duration, kept as
 * {@code "MaxRunDuration"} (nanoseconds) in the group's {@code ClusterFields}, which the engine reads for the
 * allocation-wide deadline. Pure.
 */
final class MaxRunDuration {
    static final String NOMAD = "MaxRunDuration";

    private MaxRunDuration() {}

    /** Reads it into {@code kept}; a job type other than batch and sysbatch refuses it, as Nomad does. */
    static void read(MapReader group, io.drover.core.spec.JobType type, Problems p, Map<String, Object> kept) {
        Duration d = p.read(() -> group.duration("max_run_duration", null, true), null);
        if (d != null && !type.runsToCompletion()) {
            p.add(group.problem("max_run_duration", "Job type \"" + type.wireName()
                    + "\" does not allow max_run_duration"));
        } else if (d != null) {
            kept.put(NOMAD, d.toNanos());
        }
    }
}
