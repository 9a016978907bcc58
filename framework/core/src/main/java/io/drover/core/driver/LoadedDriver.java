package io.drover.core.driver;

import io.drover.driver.api.TaskDriver;
import java.nio.file.Path;

/** A created, initialised driver and the plugin it came from. Immutable. */
record LoadedDriver(String name, TaskDriver driver, String pluginId, String version, String provider,
        Path pluginPath, ClassLoader classLoader) {}
