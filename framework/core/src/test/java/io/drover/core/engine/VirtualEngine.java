package io.drover.core.engine;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.time.ManualExecutor;
import io.drover.core.time.Nanos;
import io.drover.driver.tck.VirtualTimers;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * An engine on a virtual clock and a manually drained executor: every test runs deterministically on the
 * test thread, and time only moves when nothing else can happen.
 */
final class VirtualEngine {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    final VirtualTimers timers;
    final ManualExecutor executor = new ManualExecutor();
    final Engine engine;
    final List<AllocationState> published = new ArrayList<>();
    private final CountingStore store;

    VirtualEngine(Path dataDir, TaskDriver driver) {
        this(dataDir, driver, Duration.ofSeconds(30));
    }

    VirtualEngine(Path dataDir, TaskDriver driver, io.drover.core.store.StateStore store) {
        this(dataDir, driver, Duration.ofSeconds(30), store);
    }

    VirtualEngine(Path dataDir, TaskDriver driver, Duration maxKillTimeout) {
        this(dataDir, driver, maxKillTimeout, (io.drover.core.store.StateStore) null);
    }

    VirtualEngine(Path dataDir, TaskDriver driver, Duration maxKillTimeout, io.drover.core.store.StateStore real) {
        this(dataDir, driver, maxKillTimeout, real, GcKillPolicy.PRESERVE_STATES, T0);
    }

    VirtualEngine(Path dataDir, TaskDriver driver, Duration maxKillTimeout, io.drover.core.store.StateStore real,
            GcKillPolicy killPolicy) {
        this(dataDir, driver, maxKillTimeout, real, killPolicy, T0);
    }

    /** An engine whose client sets {@code driver_start_timeout}. */
    VirtualEngine(Path dataDir, TaskDriver driver, Duration maxKillTimeout, Duration driverStartTimeout) {
        this(dataDir, driver, maxKillTimeout, null, GcKillPolicy.PRESERVE_STATES, T0, driverStartTimeout);
    }

    /**
     * An engine whose clock starts at {@code start}: a second engine on the same store after time passed (an
     * agent restarted later). {@link #ms} still counts from {@link #T0}.
     */
    VirtualEngine(Path dataDir, TaskDriver driver, io.drover.core.store.StateStore real, Instant start) {
        this(dataDir, driver, Duration.ofSeconds(30), real, GcKillPolicy.PRESERVE_STATES, start);
    }

    private VirtualEngine(Path dataDir, TaskDriver driver, Duration maxKillTimeout,
            io.drover.core.store.StateStore real, GcKillPolicy killPolicy, Instant start) {
        this(dataDir, driver, maxKillTimeout, real, killPolicy, start,
                io.drover.core.config.ClientConfig.DEFAULT_DRIVER_START_TIMEOUT);
    }

    private VirtualEngine(Path dataDir, TaskDriver driver, Duration maxKillTimeout,
            io.drover.core.store.StateStore real, GcKillPolicy killPolicy, Instant start, Duration startTimeout) {
        this.timers = new VirtualTimers(start);
        this.store = real == null ? null : new CountingStore(real);
        try {
            driver.init(new DriverContext(Map.of(), timers, "test"));
        } catch (DriverException e) {
            throw new IllegalStateException(e);
        }
        DriverCatalog catalog = new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return name.equals(driver.name()) ? Optional.of(driver) : Optional.empty();
            }

            @Override
            public Set<String> names() {
                return Set.of(driver.name());
            }
        };
        AtomicInteger n = new AtomicInteger();
        engine = new Engine(new EngineConfig(dataDir, maxKillTimeout, killPolicy, startTimeout), catalog,
                new EngineRuntime(timers, executor, null), this.store,
                () -> String.format("alloc-%04d", n.incrementAndGet()));
        engine.addListener(published::add);
    }

    /** Runs the job's first allocation to its end and returns its final state. */
    AllocationState run(Job job) {
        String id = engine.submit(job).get(0).id();
        runUntil(() -> engine.terminal(id).isDone(), Duration.ofDays(2));
        return engine.terminal(id).join();
    }

    /** Runs everything that is runnable now, waiting for the store's writer thread to publish what it holds. */
    private void quiesce() {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            executor.drain();
            if (store == null || store.outstanding() == 0) {
                if (executor.drain() == 0) {
                    return;
                }
                continue;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the store never called back");
            }
            Thread.onSpinWait();
        }
    }

    /** Waits until the allocation's last state is durable and published. */
    void awaitDurable(AllocationState state) {
        quiesce();
        if (!engine.allocation(state.id()).orElseThrow().equals(state)) {
            throw new AssertionError("published state differs from the terminal one");
        }
    }

    /** Runs everything runnable now without moving the clock. */
    void settle() {
        quiesce();
    }

    /** Drains work, advancing the virtual clock timer by timer, until the condition holds. */
    void runUntil(BooleanSupplier done, Duration limit) {
        Instant deadline = timers.now().plus(limit);
        while (true) {
            quiesce();
            if (done.getAsBoolean()) {
                return;
            }
            Optional<Instant> next = timers.nextDue();
            if (next.isEmpty() || next.get().isAfter(deadline)) {
                throw new AssertionError("stuck: condition not reached and nothing left to run before " + deadline);
            }
            timers.runNextTimer();
        }
    }

    /** Milliseconds since T0 of an event time. */
    static long ms(TaskEvent e) {
        return Duration.between(T0, Nanos.toInstant(e.time())).toMillis();
    }

    static Optional<TaskEvent> first(AllocationState a, String task, TaskEventType type) {
        return a.taskStates().get(task).events().stream().filter(e -> e.type() == type).findFirst();
    }

    static List<TaskEvent> all(AllocationState a, String task, TaskEventType type) {
        return a.taskStates().get(task).events().stream().filter(e -> e.type() == type).toList();
    }

    static long at(AllocationState a, String task, TaskEventType type) {
        return ms(first(a, task, type).orElseThrow(() -> new AssertionError(task + " has no " + type + " event")));
    }
}
