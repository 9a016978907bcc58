package io.drover.agent.http;

import io.drover.agent.JobRegistry;
import io.drover.core.engine.Engine;
import io.drover.core.state.AllocationState;
import java.util.List;

/**
 * Finds an allocation by its id or a unique prefix of it (as Nomad's CLI does): an exact id wins; a prefix
 * matching several allocations is a 400 that lists them (up to {@value #SHOWN}); none is a 404. Prefixes are
 * looked up in the {@link JobRegistry}'s sorted id index, so an allocation submitted to the engine directly
 * (not through the registry) is found by its full id only. Thread-safe.
 */
final class AllocLookup {
    static final int SHOWN = 20;

    private final Engine engine;
    private final JobRegistry registry;

    AllocLookup(Engine engine, JobRegistry registry) {
        this.engine = engine;
        this.registry = registry;
    }

    AllocationState find(String idOrPrefix) throws ApiException {
        var exact = engine.allocation(idOrPrefix);
        if (exact.isPresent()) {
            return exact.get();
        }
        List<String> matches = registry.allocIdsWithPrefix(idOrPrefix, SHOWN + 1);
        if (matches.isEmpty()) {
            throw ApiException.notFound("allocation not found: " + idOrPrefix);
        }
        if (matches.size() > 1) {
            String shown = String.join(", ", matches.subList(0, Math.min(SHOWN, matches.size())));
            throw ApiException.badRequest("allocation prefix " + idOrPrefix + " is ambiguous; it matches "
                    + (matches.size() > SHOWN ? "more than " + SHOWN : String.valueOf(matches.size()))
                    + " allocations: " + shown);
        }
        return engine.allocation(matches.get(0))
                .orElseThrow(() -> ApiException.notFound("allocation not found: " + idOrPrefix));
    }
}
