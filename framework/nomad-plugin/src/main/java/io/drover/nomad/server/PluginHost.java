package io.drover.nomad.server;

import io.drover.core.driver.DriverRegistry;
import io.drover.core.driver.PluginConfigProblem;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import io.drover.nomad.task.NomadTasks;
import io.drover.nomad.task.TaskEventHub;
import io.drover.nomad.wire.ConfigProblems;
import io.drover.nomad.wire.DriverSchemas;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one Drover driver this plugin process serves. Nomad's client configures a plugin once, right after
 * PluginInfo and ConfigSchema: {@link #configure} then loads the driver from the plugin directory (PF4J) and calls
 * its {@code init} with the plugin block (the {@code -config} file's {@code plugin "<driver>"} block, overridden
 * key by key by Nomad's). Before that, the driver's fingerprint is "undetected" and tasks are refused.
 * Thread-safe.
 */
public final class PluginHost implements AutoCloseable {
    private final String driverName;
    private DriverSchemas.Schemas schemas; // guarded by this; found on first use
    private final Path pluginDir;
    private final Map<String, Object> fileConfig;
    private final Timers timers;
    private final TaskEventHub events = new TaskEventHub();
    private volatile Loaded loaded;
    private Map<String, Object> configuredWith; // guarded by this

    private record Loaded(DriverRegistry registry, TaskDriver driver, NomadTasks tasks) {}

    public PluginHost(String driverName, Path pluginDir, Map<String, Object> fileConfig, Timers timers) {
        this.driverName = driverName;
        this.pluginDir = pluginDir;
        this.fileConfig = Map.copyOf(fileConfig);
        this.timers = timers;
    }

    public String driverName() {
        return driverName;
    }

    /**
     * The driver's plugin-block and task-config schemas. Nomad asks for them before it configures the plugin, so the
     * first call loads the plugin directory once with the {@code -config} file's block (a probe, closed at once) to
     * read the schemas the driver declares; a driver that declares none is served with Drover's table
     * ({@link DriverSchemas}).
     *
     * @throws ConfigProblems when the driver is not in the plugin directory or no schema is known for it
     */
    public synchronized DriverSchemas.Schemas schemas() throws ConfigProblems {
        if (schemas != null) {
            return schemas;
        }
        io.drover.core.driver.DriverSchemas declared = io.drover.core.driver.DriverSchemas.NONE;
        List<String> why = List.of();
        try (DriverRegistry probe = DriverRegistry.load(pluginDir, Map.of(driverName, fileConfig), timers)) {
            Optional<io.drover.core.driver.DriverInfo> info = probe.drivers().stream()
                    .filter(d -> d.name().equals(driverName)).findFirst();
            if (info.isPresent()) {
                declared = info.get().schemas();
            } else {
                why = probe.problems().isEmpty() ? List.of("no driver \"" + driverName + "\" in " + pluginDir)
                        : probe.problems();
            }
        }
        Optional<DriverSchemas.Schemas> found = DriverSchemas.resolve(driverName, declared);
        if (found.isEmpty()) {
            throw new ConfigProblems("driver \"" + driverName + "\"", why.isEmpty()
                    ? List.of("it declares no config schema and Drover knows none for it") : why);
        }
        schemas = found.get();
        return schemas;
    }

    public TaskEventHub events() {
        return events;
    }

    public Timers timers() {
        return timers;
    }

    /**
     * Decodes Nomad's plugin block and loads the driver with it. Idempotent for the same block; another block once
     * configured is refused (Nomad configures a plugin process once).
     *
     * @throws ConfigProblems naming the bad keys or the driver's refusal
     */
    public synchronized void configure(byte[] msgpack) throws ConfigProblems {
        DriverSchemas.Schemas schemas = schemas();
        Map<String, Object> config = new LinkedHashMap<>(fileConfig);
        config.putAll(schemas.plugin().decode(msgpack));
        if (configuredWith != null) {
            if (configuredWith.equals(config)) {
                return;
            }
            throw new ConfigProblems(schemas.plugin().block(), List.of("already configured with another block"));
        }
        DriverRegistry registry = DriverRegistry.load(pluginDir, Map.of(driverName, config), timers);
        for (PluginConfigProblem p : registry.configProblems()) {
            registry.close();
            throw new ConfigProblems(schemas.plugin().block(), List.of(p.key() + ": " + p.problem()));
        }
        Optional<TaskDriver> driver = registry.driver(driverName);
        if (driver.isEmpty()) {
            List<String> why = registry.problems().isEmpty()
                    ? List.of("no driver \"" + driverName + "\" in " + pluginDir) : registry.problems();
            registry.close();
            throw new ConfigProblems(schemas.plugin().block(), why);
        }
        configuredWith = config;
        loaded = new Loaded(registry, driver.get(), new NomadTasks(driver.get(), schemas.task(), timers, events));
    }

    /** The driver, once configured. */
    public Optional<TaskDriver> driver() {
        Loaded l = loaded;
        return l == null ? Optional.empty() : Optional.of(l.driver());
    }

    /** The task table, once configured. */
    public Optional<NomadTasks> tasks() {
        Loaded l = loaded;
        return l == null ? Optional.empty() : Optional.of(l.tasks());
    }

    /** Ends the event streams and closes the driver; tasks keep running (Nomad recovers them). */
    @Override
    public void close() {
        events.close();
        Loaded l = loaded;
        if (l != null) {
            l.registry().close();
        }
    }
}
