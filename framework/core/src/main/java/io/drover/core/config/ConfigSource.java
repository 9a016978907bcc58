package io.drover.core.config;

import java.util.Map;
import java.util.Set;

/**
 * Where an {@link AgentConfig} came from: the file and the 1-based line of every key written in it, by the key
 * path its error messages use ({@code bind_addr}, {@code client > gc_max_allocs}, {@code plugin "raw_exec"},
 * {@code plugin "raw_exec" > config > enabled}). Lets later checks (a driver refusing its plugin config, keys a
 * command ignores) name the file, line and key, and tell keys the operator set from defaults. Immutable.
 *
 * @param file the config file as given on the command line; null for built-in defaults
 */
public record ConfigSource(String file, Map<String, Integer> lines) {
    /** Built-in defaults: no file, nothing written. */
    public static final ConfigSource NONE = new ConfigSource(null, Map.of());

    public ConfigSource {
        lines = Map.copyOf(lines);
    }

    /** Whether the file sets this key path. */
    public boolean has(String keyPath) {
        return lines.containsKey(keyPath);
    }

    /** The key paths the file sets. */
    public Set<String> keys() {
        return lines.keySet();
    }

    /**
     * The line of {@code keyPath}, or of its nearest written parent ({@code a > b > c}, then {@code a > b}, then
     * {@code a}); 0 when none is written.
     */
    public int line(String keyPath) {
        String path = keyPath;
        while (true) {
            Integer line = lines.get(path);
            if (line != null) {
                return line;
            }
            int cut = path.lastIndexOf(" > ");
            if (cut < 0) {
                return 0;
            }
            path = path.substring(0, cut);
        }
    }

    /** {@code FILE:LINE: } for a key path (the line left out when unknown), or nothing when there is no file. */
    public String where(String keyPath) {
        if (file == null) {
            return "";
        }
        int line = line(keyPath);
        return file + (line > 0 ? ":" + line : "") + ": ";
    }

    /** A config error at a key path found after parsing: names the file (or the built-in config), line and key. */
    public ConfigException error(String keyPath, String problem) {
        return new ConfigException(file != null ? file : "<built-in config>", line(keyPath), keyPath, problem);
    }
}
