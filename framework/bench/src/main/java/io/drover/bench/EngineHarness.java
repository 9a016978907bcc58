package io.drover.bench;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.store.JournalStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * An engine as the agent builds one: a real worker pool and timers, drivers loaded from the plugin dir (raw_exec
 * enabled), and optionally the durable journal store. Closing it closes the engine (tasks left running are the
 * bench's to stop first), the store, the drivers and the threads.
 */
final class EngineHarness implements AutoCloseable {
    final EngineRuntime runtime;
    final DriverRegistry registry;
    final JournalStore store;
    /** What the engine asked of the durable store (null without one). */
    final CountingStore counts;
    final Engine engine;

    /**
     * @param durable keep state in a journal store under {@code dataDir/state} (persist, then publish)
     * @param wrap wraps the driver catalog (e.g. to time signals); identity when none
     */
    EngineHarness(BenchEnv env, Path dataDir, boolean durable, UnaryOperator<DriverCatalog> wrap) throws Exception {
        this(env, dataDir, durable, wrap, GcKillPolicy.PRESERVE_STATES);
    }

    /** @param policy the client's {@code gc_kill_policy}, which also governs stops */
    EngineHarness(BenchEnv env, Path dataDir, boolean durable, UnaryOperator<DriverCatalog> wrap,
            GcKillPolicy policy) throws Exception {
        Files.createDirectories(dataDir);
        runtime = EngineRuntime.real(Math.max(2, Runtime.getRuntime().availableProcessors()), true);
        registry = DriverRegistry.load(env.pluginDir(), Map.of("raw_exec", Map.of("enabled", true)),
                runtime.timers());
        if (!registry.problems().isEmpty()) {
            registry.problems().forEach(p -> env.progress().println("warning: " + p));
        }
        store = durable ? JournalStore.open(dataDir.resolve("state")) : null;
        counts = store == null ? null : new CountingStore(store);
        engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30), policy),
                wrap.apply(registry), runtime, counts, () -> UUID.randomUUID().toString());
    }

    /**
     * Parses a bench's job of one group and gives that group {@code count} allocations as a record, so a bench may
     * go past the job-file limit ({@code JobMapper.MAX_ALLOCATIONS}, a guard against bad input):
     * {@code --param gc.allocations=20000} still measures 20,000.
     */
    static Job job(String name, String hcl, int count) throws Exception {
        Job parsed = JobFileParser.parse(name + ".hcl", hcl.getBytes(StandardCharsets.UTF_8));
        io.drover.core.spec.TaskGroup g = parsed.groups().get(0);
        return new Job(parsed.id(), parsed.name(), parsed.type(), parsed.datacenters(),
                List.of(new io.drover.core.spec.TaskGroup(g.name(), count, g.restart(), g.maxRuntime(), g.tasks(),
                        g.line())),
                parsed.source());
    }

    /** Waits until every allocation is terminal. */
    void awaitTerminal(List<AllocationState> allocs, long timeoutSeconds) throws Exception {
        CompletableFuture.allOf(allocs.stream().map(a -> engine.terminal(a.id())).toArray(CompletableFuture[]::new))
                .get(timeoutSeconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        engine.close();
        if (store != null) {
            store.close();
        }
        registry.close();
        runtime.close();
    }
}
