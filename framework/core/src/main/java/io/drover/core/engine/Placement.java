package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places allocations: makes their runners, gives them their ports and adds them to the {@link AllocTable}, for
 * a submitted job, a replacement, or a recorded allocation resumed at start ({@link #resumed}). Thread-safe: any
 * thread places (the port allocator has its own monitor, the table is concurrent); nothing here blocks. Once
 * {@link #close closed}, new placements are refused.
 */
final class Placement {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final EngineConfig config;
    private final DriverCatalog drivers;
    private final EngineRuntime runtime;
    private final StateStore store;
    private final Supplier<String> ids;
    private final AllocTable table;
    private final Consumer<AllocationState> publish;
    private final PortAllocator ports;
    private volatile IntConsumer beforePlacement = n -> {};
    private volatile boolean closed;

    Placement(EngineConfig config, DriverCatalog drivers, EngineRuntime runtime, StateStore store,
            Supplier<String> ids, AllocTable table, Consumer<AllocationState> publish) {
        this.config = config;
        this.drivers = drivers;
        this.runtime = runtime;
        this.store = store;
        this.ids = ids;
        this.table = table;
        this.publish = publish;
        this.ports = new PortAllocator(config.dynamicPorts());
    }

    /** See {@link Engine#submit}. */
    List<AllocationState> submit(Job job) {
        refuseIfClosed();
        int incoming = job.groups().stream().mapToInt(TaskGroup::count).sum();
        beforePlacement.accept(incoming);
        List<AllocRunner> created = new ArrayList<>();
        for (TaskGroup group : job.groups()) {
            for (int i = 0; i < group.count(); i++) {
                created.add(placeNew(job, group, i));
            }
        }
        created.forEach(AllocRunner::start);
        if (LOG.isInfoEnabled()) {
            LOG.info("job {}: placed {} allocation(s): {}", job.id(), created.size(),
                    created.stream().map(AllocRunner::id).toList());
        }
        return created.stream().map(AllocRunner::snapshot).toList();
    }

    /** See {@link Engine#replace}. */
    AllocationState replace(AllocationState failed, Consumer<String> beforeStart) {
        refuseIfClosed();
        beforePlacement.accept(1);
        AllocRunner runner = placeNew(failed.job(), failed.group(), failed.index());
        String id = runner.id();
        beforeStart.accept(id);
        runner.start();
        LOG.info("job {}: placed allocation {} to replace failed allocation {}", failed.jobId(), id, failed.id());
        return runner.snapshot();
    }

    /**
     * A runner for a recorded allocation (agent start), in the table, its recorded ports held again while it is
     * live; the caller resumes it. Called once per recorded allocation, on the thread that restores.
     */
    AllocRunner resumed(AllocationState s, TaskGroup group) {
        AllocRunner runner = new AllocRunner(s.id(), s.job(), group, s.index(), config, drivers, runtime, store,
                publish, s.createTime());
        table.add(runner);
        if (s.allocatedResources() != null) {
            runner.network(new PortAllocator.Assignment(s.allocatedResources(), null));
            if (!s.terminal()) {
                ports.reserve(s.id(), s.allocatedResources());
                runner.terminal().whenComplete((done, e) -> ports.release(s.id()));
            }
        }
        if (!s.terminal()) {
            table.countLive(runner, group);
        }
        return runner;
    }

    /** See {@link Engine#beforePlacement}. */
    void beforePlacement(IntConsumer hook) {
        this.beforePlacement = hook;
    }

    /** No new placements. Idempotent, any thread. */
    void close() {
        closed = true;
    }

    /** A new allocation with a new id, its ports taken until it is terminal, in the table, not started. */
    private AllocRunner placeNew(Job job, TaskGroup group, int index) {
        AllocRunner runner = new AllocRunner(ids.get(), job, group, index, config, drivers, runtime, store,
                publish, -1);
        String id = runner.id();
        runner.network(ports.allocate(id, group.runtime().network()));
        runner.terminal().whenComplete((done, e) -> ports.release(id));
        table.add(runner);
        table.countLive(runner, group);
        return runner;
    }

    private void refuseIfClosed() {
        if (closed) {
            throw new IllegalStateException("engine is shut down");
        }
    }
}
