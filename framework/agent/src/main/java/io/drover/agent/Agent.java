package io.drover.agent;

import io.drover.core.reschedule.Rescheduler;
import io.drover.agent.http.HttpApi;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ConfigException;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.driver.DriverInfo;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.driver.PluginConfigProblem;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.gc.FileSystemProbe;
import io.drover.core.gc.GarbageCollector;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.store.JournalStore;
import io.drover.core.store.StoreCorruptException;
import io.drover.core.store.StoreRefusedException;
import io.drover.core.store.StoreStall;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-running agent: data dir, durable state store ({@code <data_dir>/state}), driver plugins, engine, job
 * registry and the HTTP API, started from an {@link AgentConfig}. At start the engine restores every recorded
 * allocation (and the job registry is rebuilt from them) before the API accepts a request. {@link #close()} is a graceful stop: the API stops answering, the engine stops
 * publishing, and tasks are left running for a later agent to re-attach (as Nomad's client does).
 *
 * <p>Threads: {@code max(2, cores)} engine workers, one timer and one {@code drover-gc} thread for GC passes
 * (CONCURRENCY.md), the API's server threads
 * and log-follow ticks (see {@code ApiServer}, {@code LogFollowers}). {@link #start} and {@link #close()} are
 * for one owner thread; the getters are thread-safe.
 */
public final class Agent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);

    private final EngineRuntime runtime;
    private final DriverRegistry registry; // null when no plugins were loaded
    private final List<String> pluginProblems;
    private final Engine engine;
    private final JobRegistry jobs;
    private final HttpApi http;
    private final Path dataDir;
    private final JournalStore store;
    private final GarbageCollector gc;
    private final ExecutorService gcThread;
    private ParentJobs parents;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Agent(EngineRuntime runtime, DriverRegistry registry, List<String> pluginProblems, Engine engine,
            JobRegistry jobs, HttpApi http, Path dataDir, JournalStore store, GarbageCollector gc,
            ExecutorService gcThread) {
        this.pluginProblems = pluginProblems;
        this.store = store;
        this.gc = gc;
        this.gcThread = gcThread;
        this.runtime = runtime;
        this.registry = registry;
        this.engine = engine;
        this.jobs = jobs;
        this.http = http;
        this.dataDir = dataDir;
    }

    /**
     * Starts an agent and returns once its API answers.
     *
     * @param gcTrigger also run by {@code PUT /v1/system/gc}, after the agent's own GC pass is scheduled (on a
     *     server thread: it must only schedule work); null for none
     * @throws AgentStartException with one line for the user: data_dir unusable, address in use, ...
     */
    public static Agent start(AgentConfig config, Runnable gcTrigger) throws AgentStartException {
        return start(config, gcTrigger, () -> UUID.randomUUID().toString());
    }

    /** As {@link #start(AgentConfig, Runnable)} with the allocation ids taken from {@code allocIds} (tests). */
    public static Agent start(AgentConfig config, Runnable gcTrigger, Supplier<String> allocIds)
            throws AgentStartException {
        if (config.dataDir() == null) {
            throw new AgentStartException("data_dir is not set: the agent needs a directory for its state", null);
        }
        OutOfMemoryExit.install(); // a thread that dies of OOM ends the agent with exit 1, never a wedged agent
        long t0 = System.nanoTime();
        Path dataDir = config.dataDir().toAbsolutePath().normalize();
        DirChecks.prepareDataDir(dataDir).ifPresent(LOG::warn);

        JournalStore store = openStore(dataDir.resolve(STATE_DIR));
        RaftIndex index;
        NodeInfo node;
        io.drover.core.vars.VariableStore variables;
        try {
            // a block of indexes is reserved about once per half a million changes: a short thread each time
            index = RaftIndex.open(dataDir, r -> {
                Thread t = new Thread(r, "drover-raft-index");
                t.setDaemon(true);
                t.start();
            });
            node = NodeInfo.load(dataDir, config);
            variables = io.drover.core.vars.VariableStore.open(dataDir, index::take, index::publish,
                    config.aclToken() != null);
        } catch (IOException e) {
            store.close();
            throw new AgentStartException("cannot use " + dataDir + ": " + e.getMessage(), e);
        }
        long tStore = System.nanoTime();
        EngineRuntime runtime = EngineRuntime.real(Math.max(2, Runtime.getRuntime().availableProcessors()), true);
        List<String> pluginDirProblems = new java.util.ArrayList<>();
        DriverRegistry registry = loadDrivers(config, runtime, pluginDirProblems);
        List<String> pluginProblems = registry != null ? registry.problems() : List.copyOf(pluginDirProblems);
        if (registry != null && !registry.configProblems().isEmpty()) {
            registry.close();
            closeQuietly(runtime);
            store.close();
            throw new AgentStartException(configError(config, registry.configProblems().get(0)));
        }
        DriverCatalog catalog = registry != null ? registry
                : pluginDirProblems.isEmpty() ? DriverCatalog.EMPTY : DriverCatalog.refused(pluginDirProblems.get(0));
        // Nomad's service registry: every change takes an agent index, which wakes blocking queries
        io.drover.core.engine.ServiceRegistry services = new io.drover.core.engine.ServiceRegistry(node.id(),
                index::next);
        Engine engine = new Engine(new EngineConfig(dataDir, config.client().maxKillTimeout(),
                config.client().gcKillPolicy(), config.client().driverStartTimeout(), config.client().dynamicPorts(),
                config.client().node().hostVolumes(), services, variables).withNode(node.interpolationVars()),
                catalog, runtime, store,
                allocIds);
        JobRegistry jobs = new JobRegistry(engine, config.client().taskLimits(), index,
                node.feasibility(catalog.names()));
        Rescheduler rescheduler = new Rescheduler(runtime.timers(), runtime.executor(), node.id());
        jobs.rescheduler(rescheduler);
        AllocIndexes allocIndexes = new AllocIndexes(index);
        engine.addListener(allocIndexes);
        ExecutorService gcThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "drover-gc");
            t.setDaemon(true);
            return t;
        });
        GarbageCollector collector = new GarbageCollector(engine, config.client(), dataDir, new FileSystemProbe(),
                runtime.timers(), gcThread, jobs::forget);
        Runnable gc = () -> {
            collector.collectNow();
            if (gcTrigger != null) {
                gcTrigger.run();
            }
        };
        long tDrivers = System.nanoTime();
        HttpApi http;
        ParentJobs parents = new ParentJobs(jobs, dataDir, runtime.timers());
        try {
            int restored = engine.restore();
            long tRestore = System.nanoTime();
            jobs.restore(engine.allocations());
            rescheduler.restore(jobs.jobs().stream().filter(e -> !e.stopped()).map(jobs::allocations).toList());
            engine.addListener(rescheduler);
            try {
                parents.restore();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            LOG.info("restored {} allocation(s) of {} job(s) from {} in {} ms (store open {} ms, drivers {} ms, "
                    + "engine restore {} ms, job registry {} ms)", restored, jobs.jobs().size(),
                    dataDir.resolve(STATE_DIR), ms(System.nanoTime() - t0), ms(tStore - t0), ms(tDrivers - tStore),
                    ms(tRestore - tDrivers), ms(System.nanoTime() - tRestore));
            collector.start();
        } catch (RuntimeException e) {
            parents.close();
            collector.close();
            gcThread.shutdownNow();
            engine.close();
            if (registry != null) {
                registry.close();
            }
            closeQuietly(runtime);
            store.close();
            throw new AgentStartException("cannot restore the state in " + dataDir.resolve(STATE_DIR) + ": "
                    + e.getMessage(), e);
        }
        try {
            http = HttpApi.start(new HttpApi.Services(engine, jobs, catalog,
                    () -> registry != null ? registry.drivers() : List.<DriverInfo>of(), dataDir, gc,
                    () -> store.stall().map(Agent::refusal), () -> pluginProblems, index, allocIndexes, node, parents),
                    config.bindAddr(), config.httpPort(), config.aclToken(), config.http());
        } catch (IOException | RuntimeException e) {
            parents.close();
            collector.close();
            gcThread.shutdownNow();
            engine.close();
            if (registry != null) {
                registry.close();
            }
            closeQuietly(runtime);
            store.close();
            throw new AgentStartException("cannot serve the HTTP API on " + config.bindAddr() + ":"
                    + config.httpPort() + ": " + e.getMessage(), e);
        }
        LOG.info("agent ready: API on http://{}:{}{}, data_dir {}, drivers {}", http.host(), http.port(),
                config.aclToken() != null ? " (token required)" : "", dataDir, catalog.names());
        if (config.aclToken() == null && !isLoopback(config.bindAddr())) {
            LOG.warn("the API listens on {} without a token: anyone who reaches it can run jobs here; "
                    + "set acl {{ token = \"...\" }} or bind_addr = \"127.0.0.1\"", config.bindAddr());
        }
        Agent agent = new Agent(runtime, registry, pluginProblems, engine, jobs, http, dataDir, store, collector,
                gcThread);
        agent.parents = parents;
        return agent;
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    /** The store's folder under data_dir. */
    public static final String STATE_DIR = "state";

    /**
     * Opens the state store; a corrupt, unreadable, incomplete or untrusted one (another user's directory, a
     * missing journal) is an {@link AgentStartException} whose one-line message names the file (the agent must not
     * start and silently drop what it cannot read).
     */
    private static JournalStore openStore(Path dir) throws AgentStartException {
        try {
            return JournalStore.open(dir);
        } catch (StoreCorruptException | StoreRefusedException e) {
            throw new AgentStartException(e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            throw new AgentStartException("cannot open the state store in " + dir + ": " + e, e);
        }
    }

    private static boolean isLoopback(String addr) {
        try {
            return java.net.InetAddress.getByName(addr).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** Loads the drivers; a refused plugin_dir is added to {@code dirProblems} (and logged) and gives null. */
    private static DriverRegistry loadDrivers(AgentConfig config, EngineRuntime runtime, List<String> dirProblems) {
        Path dir = config.pluginDir();
        if (dir == null) {
            LOG.warn("plugin_dir is not set: no drivers loaded");
            return null;
        }
        Optional<String> problem = DirChecks.pluginDirProblem(dir);
        if (problem.isPresent()) {
            LOG.warn(problem.get());
            dirProblems.add(problem.get());
            return null;
        }
        DriverRegistry registry = DriverRegistry.load(dir, config.plugins(), runtime.timers());
        registry.problems().forEach(LOG::warn);
        registry.unusedPluginBlocks(config).forEach(LOG::warn);
        return registry;
    }

    /** A driver refused its plugin config block: a config error naming the file, the line where known and the key. */
    private static ConfigException configError(AgentConfig config, PluginConfigProblem p) {
        return config.source().error(p.keyPath(), p.problem());
    }

    /** The bound HTTP port (the ephemeral one when configured with port 0). */
    public int httpPort() {
        return http.port();
    }

    /** {@code http://host:port} of the API. */
    public String address() {
        return "http://" + http.host() + ":" + http.port();
    }

    /** Blocking queries ({@code GET ?index=}) parked now, waiting for a change (the API caps them). */
    public int waitingQueries() {
        return http.waitingQueries();
    }

    /** Log follows streaming now (the API caps them; see {@code LogFollowers}). */
    public int activeLogFollows() {
        return http.activeLogFollows();
    }

    /** Event streams open now ({@code GET /v1/event/stream}; the API caps them). */
    public int activeEventStreams() {
        return http.activeEventStreams();
    }

    public Engine engine() {
        return engine;
    }

    /** The periodic and parameterized jobs (tests). */
    ParentJobs parentJobs() {
        return parents;
    }

    public JobRegistry jobs() {
        return jobs;
    }

    /** The client's garbage collector (contract §3). */
    public GarbageCollector gc() {
        return gc;
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * Why the state store stopped for good, if it did: a change that cannot be encoded (a bug; disk errors never
     * stop it, see {@link #storeStall()}), so whoever runs the agent polls this and exits non-zero. Empty while
     * the store works. Thread-safe.
     */
    public Optional<Throwable> storeFailure() {
        return Optional.ofNullable(store.failure());
    }

    /**
     * While the state store cannot write to data_dir (full, read-only, failing disk): which file, why, and how
     * many changes it holds in memory. The agent stays up meanwhile: reads answer with the durable state, requests
     * that change state get 503, and everything resumes by itself when the disk takes writes again. Thread-safe.
     */
    public Optional<StoreStall> storeStall() {
        return store.stall();
    }

    /** The one line a client gets (503) for a change while the store cannot write. */
    static String refusal(StoreStall stall) {
        return "data_dir problem: " + stall.describe() + "; the agent refuses changes until it can record them "
                + "(reads still answer)";
    }

    /**
     * Changes the last {@link #close()} could not write because data_dir still refused them (0 when everything
     * was written). Thread-safe.
     */
    public int unwrittenChanges() {
        return store.unwrittenAtClose();
    }

    /** Tasks not dead in allocations not terminal: what a graceful stop leaves running. */
    public long liveTasks() {
        return engine.allocations().stream().filter(a -> !a.terminal()).mapToLong(Agent::liveTasks).sum();
    }

    /** Drivers loaded from plugin_dir with their health (empty when none loaded). */
    public List<DriverInfo> drivers() {
        return registry != null ? registry.drivers() : List.of();
    }

    /**
     * Problems met while loading plugins, one line each: the plugin_dir refused (then no driver is loaded), or
     * each JAR skipped; empty when none. Also served by {@code GET /v1/plugins/problems}.
     */
    public List<String> pluginProblems() {
        return pluginProblems;
    }

    /**
     * Graceful stop: closes the API (log follows end), shuts the engine down without killing anything, closes
     * the drivers (which leave their tasks running) and stops the agent's threads, returning once the engine's
     * workers are idle; then closes the state store (what was queued is synced). While data_dir refuses writes,
     * the store waits up to 10 s for them, then gives up on what it holds ({@link #unwrittenChanges()}): the
     * state on disk stays consistent, ending with the last change a client could have seen. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        http.close();
        parents.close();
        gc.close();
        gcThread.shutdownNow();
        long live = liveTasks();
        engine.close();
        if (registry != null) {
            registry.close();
        }
        closeQuietly(runtime);
        awaitWorkers();
        store.close(); // after the engine: everything it queued is written and synced (bounded wait on a bad disk)
        int unwritten = store.unwrittenAtClose();
        if (unwritten > 0) {
            LOG.error("agent stopped with {} change(s) not written to {}: data_dir refused them; {} task(s) left "
                    + "running for the next agent to re-attach", unwritten, dataDir.resolve(STATE_DIR), live);
        } else {
            LOG.info("agent stopped; {} task(s) left running for the next agent to re-attach", live);
        }
    }

    /**
     * Waits (up to 5 s) for the engine's workers to finish the action they were running, so that nothing
     * writes into data_dir once close returns (a later agent, or a test's cleanup, may own it then).
     */
    private void awaitWorkers() {
        if (runtime.executor() instanceof ExecutorService pool) {
            try {
                if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
                    LOG.warn("engine workers still busy 5 s after shutdown");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long liveTasks(AllocationState a) {
        return a.taskStates().values().stream().filter(t -> t.state() != TaskLifeState.DEAD).count();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("close failed: {}", e.toString());
        }
    }
}
