package io.drover.core.driver;

import io.drover.driver.api.DriverHealth;
import java.nio.file.Path;

/** One loaded driver, as {@code drover plugin status} and {@code GET /v1/plugins} show it. */
public record DriverInfo(String name, String pluginId, String version, String provider, Path pluginPath,
        DriverHealth health) {}
