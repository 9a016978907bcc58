package io.drover.core.driver;

import io.drover.driver.api.TaskDriver;
import java.util.Optional;
import java.util.Set;

/**
 * The drivers an engine may use, by name: the loaded, initialised plugins. Thread-safe and fixed after
 * construction.
 */
public interface DriverCatalog {
    /** No driver at all: an agent whose plugin_dir could not be used; every task fails with "unknown driver". */
    DriverCatalog EMPTY = new DriverCatalog() {
        @Override
        public Optional<TaskDriver> driver(String name) {
            return Optional.empty();
        }

        @Override
        public Set<String> names() {
            return Set.of();
        }
    };

    /** The driver job files name with {@code driver = name}, if loaded. */
    Optional<TaskDriver> driver(String name);

    /** Names of every loaded driver. */
    Set<String> names();
}
