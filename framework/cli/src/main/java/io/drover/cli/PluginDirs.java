package io.drover.cli;

import io.drover.core.config.AgentConfig;
import java.nio.file.Path;

/**
 * Where drivers are loaded from: the config's {@code plugin_dir}; else {@code <drover.home>/plugins/dist} (the
 * launcher sets the system property {@code drover.home} to the repository root, where the build puts the plugin
 * JARs); else {@code ./plugins/dist}.
 */
public final class PluginDirs {
    public static final String HOME_PROPERTY = "drover.home";
    private static final String DIST = "plugins/dist";

    private PluginDirs() {}

    public static Path resolve(AgentConfig config) {
        return resolve(config, System.getProperty(HOME_PROPERTY));
    }

    static Path resolve(AgentConfig config, String droverHome) {
        if (config.pluginDir() != null) {
            return config.pluginDir();
        }
        if (droverHome != null && !droverHome.isBlank()) {
            return Path.of(droverHome).resolve(DIST);
        }
        return Path.of(DIST);
    }
}
