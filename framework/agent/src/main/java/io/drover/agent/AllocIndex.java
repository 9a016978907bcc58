package io.drover.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The registry's index of allocation ids: every id in id order (for prefix look-ups), the job of each and the
 * evaluation that placed it. Writes come from the registry under its lock; reads are lock-free.
 */
final class AllocIndex {
    private final NavigableSet<String> ids = new ConcurrentSkipListSet<>();
    private final Map<String, String> jobOf = new ConcurrentHashMap<>();
    private final Map<String, String> evalOf = new ConcurrentHashMap<>();

    /** Indexes an allocation of {@code jobId}. */
    void add(String allocId, String jobId) {
        ids.add(allocId);
        jobOf.put(allocId, jobId);
    }

    /** Records the evaluation that placed an allocation. */
    void placedBy(String allocId, String evalId) {
        evalOf.put(allocId, evalId);
    }

    /** Drops an allocation; returns the id of its job, or null when it was not indexed. */
    String remove(String allocId) {
        ids.remove(allocId);
        evalOf.remove(allocId);
        return jobOf.remove(allocId);
    }

    /** The id of the evaluation that placed an allocation, "" when none is known. */
    String evalOf(String allocId) {
        return evalOf.getOrDefault(allocId, "");
    }

    /** Allocation ids starting with {@code prefix}, in id order, at most {@code limit} of them. */
    List<String> withPrefix(String prefix, int limit) {
        List<String> out = new ArrayList<>();
        for (String id : ids.tailSet(prefix, true)) {
            if (!id.startsWith(prefix) || out.size() >= limit) {
                break;
            }
            out.add(id);
        }
        return out;
    }
}
