package io.drover.core.driver;

import io.drover.core.DroverVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.pf4j.DefaultPluginManager;
import org.pf4j.ManifestPluginDescriptorFinder;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.PluginState;
import org.pf4j.PluginStateEvent;
import org.pf4j.PluginStatusProvider;
import org.pf4j.PluginWrapper;
import org.pf4j.RuntimeMode;

/**
 * PF4J's manager as Drover uses it: always deployment mode (whatever {@code pf4j.mode} says), JAR plugins
 * described by their MANIFEST, no {@code enabled.txt}/{@code disabled.txt}, Drover's version as system version,
 * and plugins whose dependencies are missing dropped instead of failing the whole load. Loading is driven
 * one path at a time by {@link DriverRegistry}, which reports every failure itself. Not thread-safe: used by
 * the thread that loads or closes the registry.
 */
final class DroverPluginManager extends DefaultPluginManager {

    DroverPluginManager(Path pluginDir) {
        super(pluginDir);
        setSystemVersion(DroverVersion.VERSION);
        setResolveRecoveryStrategy(ResolveRecoveryStrategy.IGNORE_PLUGIN_AND_CONTINUE);
    }

    @Override
    public RuntimeMode getRuntimeMode() {
        return RuntimeMode.DEPLOYMENT;
    }

    @Override
    protected PluginDescriptorFinder createPluginDescriptorFinder() {
        return new ManifestPluginDescriptorFinder();
    }

    @Override
    protected PluginStatusProvider createPluginStatusProvider() {
        return new PluginStatusProvider() {
            @Override
            public boolean isPluginDisabled(String pluginId) {
                return false;
            }

            @Override
            public void disablePlugin(String pluginId) {}

            @Override
            public void enablePlugin(String pluginId) {}
        };
    }

    /**
     * Loads one plugin JAR (not resolved, not started).
     *
     * @throws RuntimeException whatever PF4J throws for it
     */
    PluginWrapper load(Path jar) {
        PluginWrapper plugin = loadPluginFromPath(jar);
        if (plugin == null) {
            throw new IllegalStateException("PF4J returned no plugin");
        }
        return plugin;
    }

    /**
     * Resolves dependencies and starts what resolved, in resolution order, each {@code Plugin.start()} bounded by
     * {@code limit} ({@link BoundedCall}): a plugin whose start throws (an Error too) or does not return in time
     * ends up FAILED with the reason as its failed exception ({@link BoundedCall.Timeout} for the latter) and the
     * others still start. Replaces PF4J's {@code startPlugins()}, which waits forever and lets an Error through.
     */
    void resolveAndStart(java.time.Duration limit) {
        resolvePlugins();
        for (PluginWrapper plugin : new ArrayList<>(resolvedPlugins)) {
            PluginState state = plugin.getPluginState();
            if (state.isDisabled() || state.isStarted()) {
                continue;
            }
            String id = plugin.getPluginId();
            try {
                BoundedCall.call("drover-plugin-start-" + id, plugin.getPluginClassLoader(), limit,
                        "Plugin.start() of plugin \"" + id + "\"", () -> {
                            plugin.getPlugin().start();
                            return null;
                        });
                plugin.setPluginState(PluginState.STARTED);
                plugin.setFailedException(null);
                startedPlugins.add(plugin);
            } catch (BoundedCall.Timeout e) {
                plugin.setPluginState(PluginState.FAILED);
                plugin.setFailedException(e);
            } catch (BoundedCall.Failed e) {
                plugin.setPluginState(PluginState.FAILED);
                plugin.setFailedException(e.getCause());
            }
            firePluginStateEvent(new PluginStateEvent(this, plugin, state));
        }
    }

    /** Whether the plugin's Plugin-Requires accepts this Drover. */
    boolean requiresSatisfied(PluginWrapper plugin) {
        return isPluginValid(plugin);
    }

    /**
     * Stops and unloads every plugin, each in its own try: one failing plugin does not keep the others loaded.
     * Avoids {@code stopPlugins()}, which reorders the shared started list in place and gives up on the first
     * unexpected exception.
     */
    void stopAndUnloadAll() {
        List<PluginWrapper> started = new ArrayList<>(getStartedPlugins());
        Collections.reverse(started);
        for (PluginWrapper plugin : started) {
            try {
                stopPlugin(plugin.getPluginId());
            } catch (RuntimeException | LinkageError e) {
                // unloading below still releases its class loader
            }
        }
        for (PluginWrapper plugin : getPlugins()) {
            unloadQuietly(plugin.getPluginId());
        }
    }

    /** Stops and unloads one plugin, releasing its class loader (and JAR file); never throws. */
    void unloadQuietly(String pluginId) {
        try {
            unloadPlugin(pluginId);
        } catch (RuntimeException | LinkageError e) {
            // nothing more can be done; the class loader stays until the JVM exits
        }
    }
}
