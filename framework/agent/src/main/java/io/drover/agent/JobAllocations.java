package io.drover.agent;

import io.drover.core.engine.Engine;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a registry entry's allocations say, read from the engine: their current snapshots, the ones a client may
 * list, the job's status and summary counts. Stateless and thread-safe: any thread may call it.
 */
final class JobAllocations {
    private final Engine engine;

    JobAllocations(Engine engine) {
        this.engine = engine;
    }

    /** Current snapshots of a job's allocations, oldest first. */
    List<AllocationState> all(JobRegistry.Entry entry) {
        List<AllocationState> out = new ArrayList<>(entry.allocIds().size());
        for (String id : entry.allocIds()) {
            engine.allocation(id).ifPresent(out::add);
        }
        return out;
    }

    /** Current snapshots of the allocations of the entry's own version (its registration's), oldest first. */
    List<AllocationState> current(JobRegistry.Entry entry) {
        return all(entry).stream().filter(a -> a.job().equals(entry.job())).toList();
    }

    /** The job's allocations on disk ({@link Engine#isRecorded}), oldest first. */
    List<AllocationState> listed(JobRegistry.Entry entry) {
        List<AllocationState> out = new ArrayList<>(entry.allocIds().size());
        for (String id : entry.allocIds()) {
            if (engine.isRecorded(id)) {
                engine.allocation(id).ifPresent(out::add);
            }
        }
        return out;
    }

    /** Nomad's job status: {@code dead} when no allocation is live, else {@code running}; a parent until stopped. */
    String status(JobRegistry.Entry entry) {
        if (entry.job().launch().parent()) { // Nomad: a periodic or parameterized parent runs until stopped
            return entry.stopped() ? "dead" : "running";
        }
        return all(entry).stream().allMatch(AllocationState::terminal) ? "dead" : "running";
    }

    /** Counts of the listed allocations by client status, every status present. */
    Map<ClientStatus, Long> summary(JobRegistry.Entry entry) {
        Map<ClientStatus, Long> counts = new EnumMap<>(ClientStatus.class);
        for (ClientStatus s : ClientStatus.values()) {
            counts.put(s, 0L);
        }
        listed(entry).forEach(a -> counts.merge(a.clientStatus(), 1L, Long::sum));
        return counts;
    }
}
