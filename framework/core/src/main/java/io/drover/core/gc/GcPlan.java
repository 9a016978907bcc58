package io.drover.core.gc;

import java.util.List;

/**
 * What one GC pass decided.
 *
 * @param victims in destroy order (oldest first within each reason)
 * @param skipped one log line per limit GC could not bring the client under (Nomad's "garbage collection
 *     skipped" warning), empty when none
 */
public record GcPlan(List<GcVictim> victims, List<String> skipped) {
    public GcPlan {
        victims = List.copyOf(victims);
        skipped = List.copyOf(skipped);
    }
}
