package io.drover.core.driver;

import io.drover.core.config.AgentConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The drivers loaded from a plugin directory through PF4J. Loading never throws for a bad plugin: each one
 * becomes a line in {@link #problems()} and is skipped; the others load.
 *
 * <p>Each driver is created once ({@code TaskDriver} extension classes of started plugins, public no-arg
 * constructor) and initialised once with its {@code plugin "<name>"} config block; the registry hands out that
 * one instance. Problem lines are {@code "<plugin_dir>/<file>: <reason>; skipped"}, or
 * {@code "plugin_dir <dir> does not exist"}; they never carry a stack trace and do not depend on PF4J's log.
 *
 * <p>Each third-party driver is handed out wrapped in an {@link IsolatedDriver}: a plugin's {@code start} runs on
 * that driver's own bounded pool, never on an engine thread. Drover's own plugins are called directly
 * ({@link #bundled}).
 *
 * <p>Thread-safe: fixed after {@link #load}; {@link #close()} may race with lookups, which then see no drivers.
 */
public final class DriverRegistry implements DriverCatalog, AutoCloseable {
    private final Path pluginDir;
    private final List<String> problems;
    private final List<PluginConfigProblem> configProblems;
    private final Map<String, LoadedDriver> drivers; // sorted by name
    private final DroverPluginManager manager; // null when no plugin was loaded
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Map<String, HealthProbe> health = new TreeMap<>(); // fixed after construction

    private DriverRegistry(Path pluginDir, List<String> problems, List<PluginConfigProblem> configProblems,
            Map<String, LoadedDriver> drivers, DroverPluginManager manager, PluginCallLimits limits) {
        this.pluginDir = pluginDir;
        this.problems = List.copyOf(problems);
        this.configProblems = List.copyOf(configProblems);
        this.drivers = Collections.unmodifiableMap(new TreeMap<>(drivers));
        this.manager = manager;
        this.drivers.forEach((name, d) -> health.put(name, new HealthProbe(d, limits.health())));
    }

    /**
     * Loads every plugin JAR ({@code *.jar}, sorted by file name) in {@code pluginDir}, creates each driver once
     * and calls its {@code init} with its {@code plugin "<name>"} config block. PF4J always runs in deployment
     * mode with Drover's version as system version. Other files are ignored, except {@code *.zip} (reported).
     * Called once, on the agent's start-up thread.
     */
    public static DriverRegistry load(Path pluginDir, Map<String, Map<String, Object>> pluginConfigs,
            Timers timers) {
        return load(pluginDir, pluginConfigs, timers, PluginCallLimits.DEFAULT);
    }

    /**
     * As {@link #load(Path, Map, Timers)}, with each call into a plugin bounded by {@code limits}: a plugin whose
     * {@code Plugin.start()}, driver constructor, {@code name()} or {@code init} does not return in time is a
     * problem line naming it (and is skipped), so a blocking plugin delays the start by at most the limit.
     */
    public static DriverRegistry load(Path pluginDir, Map<String, Map<String, Object>> pluginConfigs,
            Timers timers, PluginCallLimits limits) {
        PluginDirLoader loader = new PluginDirLoader(pluginDir, pluginConfigs, timers, limits);
        DroverPluginManager manager = loader.load();
        Map<String, LoadedDriver> isolated = new java.util.LinkedHashMap<>();
        loader.drivers().forEach((name, d) -> isolated.put(name, bundled(d) ? d : d.isolated(START_THREADS, limits)));
        return new DriverRegistry(pluginDir, loader.problems(), loader.configProblems(), isolated, manager, limits);
    }

    /**
     * Threads each driver's pool may hold for plugin starts ({@link IsolatedDriver}): as many as the engine's pool,
     * so starts run as parallel as before, and a plugin that blocks in start holds its own threads only.
     */
    static final int START_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    /** Plugins built with Drover (Plugin-Provider "Drover"), whose start never blocks: see {@link #bundled}. */
    private static final Set<String> BUNDLED = Set.of("raw_exec", "java", "mock", "exec");

    /**
     * Whether a driver is one of Drover's own plugins, called directly rather than through {@link IsolatedDriver}:
     * their start parses the config, spawns (posix_spawn of the shim) and returns, and the extra thread hop costs
     * launch latency on a loaded machine (docs/faults.md). An operator who installs a JAR claiming to be one of
     * them trusts it as such.
     */
    private static boolean bundled(LoadedDriver d) {
        return "Drover".equals(d.provider()) && BUNDLED.contains(d.pluginId()) && BUNDLED.contains(d.name());
    }

    /** One line per plugin or driver that was skipped, naming its file and the reason, in load order. */
    public List<String> problems() {
        return problems;
    }

    /**
     * Drivers whose {@code init} refused their {@code plugin "<name>" { config { ... } }} block (a
     * {@link io.drover.driver.api.PluginConfigException}), in load order. They are not loaded and not in
     * {@link #problems()}: a bad config, which the agent and {@code drover run} refuse to start with, naming the
     * config file and key.
     */
    public List<PluginConfigProblem> configProblems() {
        return configProblems;
    }

    /**
     * One line per {@code plugin "<name>"} block the config file sets that names no driver loaded here (nor one that
     * refused its config), sorted by name: Nomad ignores such a block, Drover warns about it. Blocks not written in
     * the file (defaults such as {@code -dev}'s raw_exec) are left out: they are harmless when not installed.
     */
    public List<String> unusedPluginBlocks(AgentConfig config) {
        Set<String> refused = new java.util.HashSet<>();
        configProblems.forEach(p -> refused.add(p.driver()));
        List<String> lines = new ArrayList<>();
        for (String name : new java.util.TreeSet<>(config.plugins().keySet())) {
            String block = "plugin \"" + name + "\"";
            if (config.source().has(block) && !drivers.containsKey(name) && !refused.contains(name)) {
                lines.add(config.source().where(block) + block + ": no driver \"" + name + "\" is loaded from "
                        + pluginDir + "; the block is ignored");
            }
        }
        return lines;
    }

    /**
     * The loaded drivers, sorted by name, with their health asked now ({@link TaskDriver#health()}; a health
     * check that throws reads as unhealthy). Each health is asked on its driver's own probe thread
     * ({@link HealthProbe}) and waited for at most {@link PluginCallLimits#health()}: one that blocks reads as
     * undetected, naming the driver, and never holds the caller longer. Empty once closed.
     */
    public List<DriverInfo> drivers() {
        List<DriverInfo> infos = new ArrayList<>();
        if (closed.get()) {
            return infos;
        }
        Map<String, HealthProbe.Question> asked = new TreeMap<>();
        health.forEach((name, probe) -> asked.put(name, probe.ask())); // all at once: silent ones cost one limit
        for (LoadedDriver d : drivers.values()) {
            infos.add(new DriverInfo(d.name(), d.pluginId(), d.version(), d.provider(), d.pluginPath(),
                    health.get(d.name()).answer(asked.get(d.name())), d.schemas()));
        }
        return infos;
    }

    @Override
    public Optional<TaskDriver> driver(String name) {
        if (closed.get()) {
            return Optional.empty();
        }
        return Optional.ofNullable(drivers.get(name)).map(LoadedDriver::driver);
    }

    @Override
    public Set<String> names() {
        return closed.get() ? Set.of() : drivers.keySet();
    }

    /**
     * Closes every driver ({@link TaskDriver#close()}, failures ignored), then stops and unloads the plugins.
     * Idempotent; any thread.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<LoadedDriver> reversed = new ArrayList<>(drivers.values());
        Collections.reverse(reversed);
        for (LoadedDriver d : reversed) {
            try {
                DriverFactory.withLoader(d.classLoader(), () -> {
                    d.driver().close();
                    return null;
                });
            } catch (RuntimeException | LinkageError e) {
                // a driver that fails to close must not keep the others open
            }
        }
        health.values().forEach(HealthProbe::close);
        if (manager != null) {
            manager.stopAndUnloadAll();
        }
    }
}
