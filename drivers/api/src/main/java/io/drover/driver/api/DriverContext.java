package io.drover.driver.api;

import java.util.Map;

/**
 * What the host gives a driver at {@link TaskDriver#init}. Immutable; safe from any thread.
 *
 * @param pluginConfig the operator's {@code plugin "<name>" { config { ... } }} block, empty when absent
 * @param timers the host's clock and timers; a driver that keeps time (mock) must use them, never the wall
 *     clock, so that it runs deterministically under a virtual clock in tests
 * @param hostVersion Drover's version
 */
public record DriverContext(Map<String, Object> pluginConfig, Timers timers, String hostVersion) {
    public DriverContext {
        pluginConfig = Map.copyOf(pluginConfig);
    }

    /**
     * The plugin config block read through the driver's {@link TaskDriver#pluginConfigSchema()}: converted, defaults
     * applied. The host has checked it before {@code init}; a driver initialised without a host (a test) gets the
     * first problem here.
     *
     * @throws PluginConfigException naming the first bad key
     */
    public io.drover.driver.api.schema.ConfigView pluginConfig(io.drover.driver.api.schema.ConfigSchema schema)
            throws PluginConfigException {
        io.drover.driver.api.schema.ConfigValidation v = schema.validate(pluginConfig);
        if (!v.valid()) {
            ConfigProblem first = v.problems().get(0);
            throw new PluginConfigException(first.key(), first.message());
        }
        return v.view();
    }
}
