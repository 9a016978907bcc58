package io.drover.cli.run;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The plugin configs of {@code drover run}'s embedded dev-mode agent: {@code raw_exec} is enabled (as in
 * {@code nomad agent -dev}), under the config file's own plugin blocks, which win key by key. A default for a
 * driver that is not installed is harmless: it takes effect once the plugin appears.
 */
public final class DevModePlugins {
    static final Map<String, Map<String, Object>> DEFAULTS = Map.of("raw_exec", Map.of("enabled", true));

    private DevModePlugins() {}

    public static Map<String, Map<String, Object>> merge(Map<String, Map<String, Object>> configured) {
        Map<String, Map<String, Object>> merged = new LinkedHashMap<>();
        DEFAULTS.forEach((driver, block) -> merged.put(driver, new LinkedHashMap<>(block)));
        configured.forEach((driver, block) ->
                merged.computeIfAbsent(driver, d -> new LinkedHashMap<>()).putAll(block));
        return merged;
    }
}
