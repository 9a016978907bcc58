package io.drover.core.driver;

import io.drover.driver.api.DriverHealth;
import java.nio.file.Path;

/**
 * One loaded driver, as {@code drover plugin status} and {@code GET /v1/plugins} show it.
 *
 * @param schemas the config schemas the driver declares ({@link DriverSchemas#NONE} when none)
 */
public record DriverInfo(String name, String pluginId, String version, String provider, Path pluginPath,
        DriverHealth health, DriverSchemas schemas) {
    public DriverInfo {
        schemas = schemas == null ? DriverSchemas.NONE : schemas;
    }

    /** A driver that declares no schema. */
    public DriverInfo(String name, String pluginId, String version, String provider, Path pluginPath,
            DriverHealth health) {
        this(name, pluginId, version, provider, pluginPath, health, DriverSchemas.NONE);
    }
}
