package io.drover.core.driver;

import java.nio.file.Path;

/**
 * A driver refused the operator's {@code plugin "<driver>" { config { ... } }} block (its {@code init} threw a
 * {@link io.drover.driver.api.PluginConfigException}): a bad agent config, not a broken plugin.
 *
 * @param driver the driver's name, the block's label
 * @param key the offending key inside {@code config}, dotted for nested values; empty for the block as a whole
 * @param problem what is wrong, for the user
 * @param jar the plugin JAR the driver came from
 */
public record PluginConfigProblem(String driver, String key, String problem, Path jar) {
    /** {@code plugin "raw_exec" > config > enabled} (or {@code plugin "raw_exec" > config}). */
    public String keyPath() {
        String block = "plugin \"" + driver + "\" > config";
        return key.isEmpty() ? block : block + " > " + key.replace(".", " > ");
    }

    /** One line without the file: {@code plugin "raw_exec" > config > enabled: must be true or false, ...}. */
    public String describe() {
        return Problems.oneLine(keyPath() + ": " + problem);
    }
}
