package io.drover.core.driver;

import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.pf4j.Plugin;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;

/**
 * One pass over a plugin directory: checks each {@code *.jar} (sorted by file name, so which of two clashing
 * plugins wins is predictable), loads it through PF4J, starts the plugins, then creates and initialises one
 * instance of each {@link TaskDriver} extension each started plugin declares. Everything that goes wrong
 * becomes a problem line naming the file; nothing here throws for a bad plugin, and nothing relies on PF4J's
 * log. Plugins that end up with no driver are unloaded again. Used once, on the loading thread.
 */
final class PluginDirLoader {
    private final Path pluginDir;
    private final DriverFactory factory;
    /** Problems of the directory itself, then of each file in file-name order. */
    private final List<String> dirProblems = new ArrayList<>();
    private final Map<Path, List<String>> fileProblems = new TreeMap<>();
    private final Map<String, LoadedDriver> drivers = new LinkedHashMap<>();
    private final List<PluginConfigProblem> configProblems = new ArrayList<>();

    private final PluginCallLimits limits;

    PluginDirLoader(Path pluginDir, Map<String, Map<String, Object>> pluginConfigs, Timers timers,
            PluginCallLimits limits) {
        this.pluginDir = pluginDir;
        this.factory = new DriverFactory(pluginConfigs, timers);
        this.limits = limits;
    }

    /** Problems of the directory, then of each file, in file-name order. */
    List<String> problems() {
        List<String> all = new ArrayList<>(dirProblems);
        fileProblems.values().forEach(all::addAll);
        return all;
    }

    private void problem(Path file, String reason) {
        fileProblems.computeIfAbsent(file, f -> new ArrayList<>()).add(Problems.skipped(file, reason));
    }

    /** Drivers that refused their plugin config block, in load order (they are not loaded). */
    List<PluginConfigProblem> configProblems() {
        return configProblems;
    }

    /** The drivers that loaded, in load order, by name. */
    Map<String, LoadedDriver> drivers() {
        return drivers;
    }

    /** Loads the directory; returns the manager holding the plugins, or null when there was nothing to load. */
    DroverPluginManager load() {
        if (!Files.exists(pluginDir)) {
            dirProblems.add("plugin_dir " + pluginDir + " does not exist");
            return null;
        }
        if (!Files.isDirectory(pluginDir)) {
            dirProblems.add("plugin_dir " + pluginDir + " is not a directory");
            return null;
        }
        List<Path> jars = candidates();
        if (jars.isEmpty()) {
            return null;
        }
        List<Path> trusted = new ArrayList<>();
        for (Path jar : jars) {
            Optional<String> bad = PluginJarCheck.problem(jar);
            if (bad.isPresent()) {
                problem(jar, bad.get());
            } else {
                trusted.add(jar);
            }
        }
        NewestPluginVersions.Choice choice = NewestPluginVersions.choose(trusted);
        choice.ignored().forEach((jar, why) -> problem(jar, why));
        DroverPluginManager manager = new DroverPluginManager(pluginDir);
        Map<Path, String> loaded = new LinkedHashMap<>(); // file -> plugin id
        for (Path jar : choice.jars()) {
            loadOne(manager, jar).ifPresent(id -> loaded.put(jar, id));
        }
        try {
            manager.resolveAndStart(limits.start());
        } catch (RuntimeException | LinkageError e) {
            dirProblems.add("plugin_dir " + pluginDir + ": resolving plugins failed: " + Problems.describe(e)
                    + "; no plugin started");
        }
        loaded.forEach((jar, id) -> {
            PluginWrapper plugin = manager.getPlugin(id);
            if (started(manager, jar, id, plugin)) {
                addDrivers(manager, jar, plugin);
            }
        });
        for (PluginWrapper plugin : manager.getPlugins()) {
            boolean used = drivers.values().stream().anyMatch(d -> d.pluginId().equals(plugin.getPluginId()));
            if (!used) {
                manager.unloadQuietly(plugin.getPluginId());
            }
        }
        return manager;
    }

    private List<Path> candidates() {
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(pluginDir)) {
            for (Path file : files.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList()) {
                String name = file.getFileName().toString();
                String lower = name.toLowerCase(Locale.ROOT);
                if (name.startsWith(".") || !Files.isRegularFile(file)) {
                    continue;
                }
                if (lower.endsWith(".jar")) {
                    jars.add(pluginDir.resolve(name));
                } else if (lower.endsWith(".zip")) {
                    problem(pluginDir.resolve(name), "ZIP plugins are not supported, only JARs");
                }
            }
        } catch (IOException | RuntimeException e) {
            dirProblems.add("plugin_dir " + pluginDir + " cannot be read: " + Problems.describe(e));
        }
        return jars;
    }

    /** Loads one JAR that passed {@link PluginJarCheck}. */
    private Optional<String> loadOne(DroverPluginManager manager, Path jar) {
        try {
            PluginWrapper plugin = manager.load(jar);
            return Optional.of(plugin.getPluginId());
        } catch (RuntimeException | LinkageError e) {
            String reason = duplicateId(manager, jar).orElse("PF4J cannot load it: " + Problems.describe(e));
            problem(jar, reason);
            return Optional.empty();
        }
    }

    private Optional<String> duplicateId(DroverPluginManager manager, Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            String id = file.getManifest().getMainAttributes().getValue("Plugin-Id").trim();
            PluginWrapper other = manager.getPlugin(id);
            return other == null ? Optional.empty()
                    : Optional.of("plugin \"" + id + "\" is already loaded from " + other.getPluginPath());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether the plugin loaded from {@code jar} is started; if not, says why in a problem line. */
    private boolean started(DroverPluginManager manager, Path jar, String id, PluginWrapper plugin) {
        if (plugin == null) {
            problem(jar, "plugin \"" + id + "\" was dropped: its Plugin-Dependencies are "
                    + "missing or have the wrong version");
            return false;
        }
        PluginState state = plugin.getPluginState();
        if (state == PluginState.STARTED) {
            return true;
        }
        String reason;
        if (state == PluginState.DISABLED && !manager.requiresSatisfied(plugin)) {
            reason = "plugin \"" + id + "\" requires Drover " + requires(plugin) + ", this is "
                    + manager.getSystemVersion();
        } else if (state == PluginState.FAILED && !Plugin.class.getName().equals(plugin.getDescriptor().getPluginClass())
                && plugin.getFailedException() instanceof NullPointerException) {
            // PF4J's factory logs why and returns null; start() then fails with an NPE on it
            reason = "plugin \"" + id + "\": its Plugin-Class " + plugin.getDescriptor().getPluginClass()
                    + " cannot be created (missing, abstract, not an org.pf4j.Plugin, or its constructor failed)";
        } else if (state == PluginState.FAILED && plugin.getFailedException() instanceof BoundedCall.Timeout t) {
            reason = t.getMessage() + ": the agent starts without it";
        } else if (state == PluginState.FAILED && plugin.getFailedException() != null) {
            reason = "plugin \"" + id + "\" failed to start: " + Problems.describe(plugin.getFailedException());
        } else {
            reason = "plugin \"" + id + "\" was not started (state " + state + ")";
        }
        problem(jar, reason);
        return false;
    }

    private static String requires(PluginWrapper plugin) {
        String requires = plugin.getDescriptor().getRequires().trim();
        return requires.matches("\\d+\\.\\d+\\.\\d+") ? ">=" + requires : requires;
    }

    private void addDrivers(DroverPluginManager manager, Path jar, PluginWrapper plugin) {
        String id = plugin.getPluginId();
        List<Class<? extends TaskDriver>> types;
        try {
            types = new ArrayList<>(manager.getExtensionClasses(TaskDriver.class, id));
        } catch (RuntimeException | LinkageError e) {
            problem(jar, "plugin \"" + id + "\": its extensions cannot be read: "
                    + Problems.describe(e));
            return;
        }
        // Keep only classes the plugin itself defines and lists: a JAR without its own META-INF/extensions.idx
        // would otherwise see the host classpath's index (PF4J looks it up in the plugin, then the application).
        Set<String> own = OwnExtensionIndex.of(plugin.getPluginClassLoader());
        types.removeIf(t -> t.getClassLoader() != plugin.getPluginClassLoader() || !own.contains(t.getName()));
        types.sort(Comparator.comparing(Class::getName));
        if (types.isEmpty()) {
            problem(jar, bundlesApi(plugin)
                    ? "plugin \"" + id + "\" bundles its own copy of " + TaskDriver.class.getName()
                            + ", so its drivers are not TaskDrivers to Drover; build it with drover-driver-api in "
                            + "provided scope"
                    : "plugin \"" + id + "\" has no TaskDriver extension (no class in its "
                            + "META-INF/extensions.idx implements " + TaskDriver.class.getName() + ")");
            return;
        }
        for (Class<? extends TaskDriver> type : types) {
            addDriver(jar, plugin, type);
        }
    }

    /** Whether the plugin's class loader finds its own TaskDriver instead of the host's (plugin-first loading). */
    private static boolean bundlesApi(PluginWrapper plugin) {
        try {
            return plugin.getPluginClassLoader().loadClass(TaskDriver.class.getName()) != TaskDriver.class;
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    private void addDriver(Path jar, PluginWrapper plugin, Class<? extends TaskDriver> type) {
        try {
            String id = plugin.getPluginId();
            TaskDriver driver = bounded("drover-plugin-create-" + id, plugin, limits.init(),
                    "creating driver class " + type.getName() + " of plugin \"" + id + "\"", () -> factory.create(type));
            String name = bounded("drover-plugin-create-" + id, plugin, limits.init(),
                    "name() of driver class " + type.getName() + " of plugin \"" + id + "\"", () -> factory.name(driver));
            LoadedDriver other = drivers.get(name);
            if (other != null) {
                problem(jar, "driver \"" + name + "\" (" + type.getName()
                        + ") is already provided by " + other.pluginPath());
                return;
            }
            bounded("drover-plugin-init-" + name, plugin, limits.init(),
                    "init() of driver \"" + name + "\" (plugin \"" + id + "\")", () -> {
                        factory.init(name, driver);
                        return null;
                    });
            DriverSchemas schemas = bounded("drover-plugin-init-" + name, plugin, limits.init(),
                    "the config schemas of driver \"" + name + "\" (plugin \"" + id + "\")",
                    () -> DriverSchemas.of(driver));
            String provider = plugin.getDescriptor().getProvider();
            drivers.put(name, new LoadedDriver(name, driver, plugin.getPluginId(), plugin.getDescriptor().getVersion(),
                    provider == null ? "" : provider, jar, plugin.getPluginClassLoader(), schemas));
        } catch (DriverFactory.ConfigFailure f) {
            f.problems.forEach(p -> configProblems.add(new PluginConfigProblem(f.driver, p.key(), p.message(), jar)));
        } catch (DriverFactory.Failure f) {
            problem(jar, f.getMessage());
        }
    }

    /** A step of the factory's, run by {@link BoundedCall}: a time-out or an Error becomes a Failure. */
    private static <T> T bounded(String thread, PluginWrapper plugin, java.time.Duration limit, String what,
            FactoryStep<T> step) throws DriverFactory.Failure {
        try {
            return BoundedCall.call(thread, plugin.getPluginClassLoader(), limit, what, step::run);
        } catch (BoundedCall.Timeout e) {
            throw new DriverFactory.Failure(e.getMessage() + ": the agent starts without it");
        } catch (BoundedCall.Failed e) {
            if (e.getCause() instanceof DriverFactory.Failure f) {
                throw f;
            }
            throw new DriverFactory.Failure(what + " failed: " + Problems.describe(e.getCause()));
        }
    }

    /** One step of creating a driver. */
    private interface FactoryStep<T> {
        T run() throws DriverFactory.Failure;
    }
}
