package io.drover.core.driver;

import io.drover.driver.api.TaskDriver;
import java.nio.file.Path;

/** A created, initialised driver and the plugin it came from. Immutable. */
record LoadedDriver(String name, TaskDriver driver, String pluginId, String version, String provider,
        Path pluginPath, ClassLoader classLoader, DriverSchemas schemas) {

    /**
     * The same driver with its plugin's starts on its own pool of at most {@code threads} threads, and its
     * {@code validateConfig} bounded by {@code limits}.
     */
    LoadedDriver isolated(int threads, PluginCallLimits limits) {
        return new LoadedDriver(name, new IsolatedDriver(driver, name, classLoader, threads, limits.validate(), schemas),
                pluginId, version, provider, pluginPath, classLoader, schemas);
    }
}
