package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores the engine from its state store at agent start ({@link Engine#restore}): first each driver kills the
 * runs an earlier agent started but never recorded, then every recorded allocation is resumed through
 * {@link Placement#resumed}. Runs once, on the thread that starts the agent, before any placement; the resumed
 * runners then own their state on their serial executors.
 */
final class EngineRestore {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final EngineConfig config;
    private final DriverCatalog drivers;
    private final StateStore store;
    private final Placement placement;

    /** @param store the engine's store, not null */
    EngineRestore(EngineConfig config, DriverCatalog drivers, StateStore store, Placement placement) {
        this.config = config;
        this.drivers = drivers;
        this.store = store;
        this.placement = placement;
    }

    /** @return how many allocations were resumed */
    int restore() {
        List<AllocationState> stored = store.load();
        Set<String> unrecorded = killUnrecordedRuns(stored);
        for (AllocationState s : stored) {
            TaskGroup group = s.job().group(s.taskGroup()).orElseThrow(() -> new IllegalStateException(
                    "stored allocation " + s.id() + " names group " + s.taskGroup() + " missing from its job"));
            placement.resumed(s, group).resume(s, store.handles(s.id()), unrecorded);
        }
        return stored.size();
    }

    /**
     * Before anything is re-attached or started: each driver kills what an earlier agent started for a run whose
     * handle it never recorded (killed between a driver's start and the durable record of the handle), so such a
     * run neither leaks nor runs unreported (docs/process-supervision.md, "Runs without a recorded handle").
     *
     * @return the run ids killed
     */
    private Set<String> killUnrecordedRuns(List<AllocationState> stored) {
        Set<String> keep = new HashSet<>();
        for (AllocationState s : stored) {
            store.handles(s.id()).values().forEach(h -> {
                if (!h.isEmpty()) {
                    keep.add(Handles.fromMap(h).taskId());
                }
            });
        }
        Set<String> killed = new HashSet<>();
        Path allocRoot = config.dataDir().resolve("alloc");
        for (String name : drivers.names()) {
            drivers.driver(name).ifPresent(d -> {
                try {
                    killed.addAll(d.killUnrecordedRuns(allocRoot, keep));
                } catch (RuntimeException | LinkageError e) {
                    LOG.warn("driver {} failed to kill the runs an earlier agent left unrecorded: {}", name,
                            e.toString());
                }
            });
        }
        for (String run : killed) {
            LOG.warn("run {} was started by an earlier agent that died before recording it: its processes were "
                    + "killed", run);
        }
        return killed;
    }
}
