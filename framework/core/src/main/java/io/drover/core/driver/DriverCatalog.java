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

    /**
     * No driver because the plugin_dir was refused (owner, permissions): job checks say {@code why} beside
     * "unknown driver", so that the user learns it without reading the agent's log.
     */
    static DriverCatalog refused(String why) {
        return new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return Optional.empty();
            }

            @Override
            public Set<String> names() {
                return Set.of();
            }

            @Override
            public Optional<String> refusal() {
                return Optional.of(why);
            }
        };
    }

    /** Why no driver could be loaded at all (a refused plugin_dir), if that is so. */
    default Optional<String> refusal() {
        return Optional.empty();
    }

    /** The driver job files name with {@code driver = name}, if loaded. */
    Optional<TaskDriver> driver(String name);

    /** Names of every loaded driver. */
    Set<String> names();
}
