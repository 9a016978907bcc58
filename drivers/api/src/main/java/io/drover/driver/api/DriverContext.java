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
}
