package io.drover.core.driver;

import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.schema.ConfigSchema;
import java.util.Optional;

/**
 * The config schemas a driver declares ({@link TaskDriver#taskConfigSchema()},
 * {@link TaskDriver#pluginConfigSchema()}), read once when the driver loads so that a job check or
 * {@code GET /v1/plugins} never calls into a plugin for them. Immutable.
 *
 * @param task the task config schema; empty when the driver checks its blocks itself
 * @param plugin the plugin config schema; empty when its {@code init} checks the block itself
 */
public record DriverSchemas(Optional<ConfigSchema> task, Optional<ConfigSchema> plugin) {
    public static final DriverSchemas NONE = new DriverSchemas(Optional.empty(), Optional.empty());

    public DriverSchemas {
        task = task == null ? Optional.empty() : task;
        plugin = plugin == null ? Optional.empty() : plugin;
    }

    /** Asks the driver, on the calling thread (the caller bounds it for a third-party plugin). */
    static DriverSchemas of(TaskDriver driver) {
        return new DriverSchemas(driver.taskConfigSchema(), driver.pluginConfigSchema());
    }
}
