package io.drover.process;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigValidation;
import java.util.Map;

/**
 * The plugin config block of a driver whose only key is {@code enabled} (raw_exec, exec):
 * {@code plugin "NAME" { config { enabled = BOOL } }}, declared as a {@link ConfigSchema}. Pure; any thread.
 */
public final class EnabledFlag {
    private EnabledFlag() {}

    /** The {@code enabled} key, with the driver's default. */
    public static Attribute attribute(boolean byDefault) {
        return Attribute.bool("enabled").withDefault(byDefault).describe("whether the driver runs tasks here");
    }

    /** The block's schema: {@code enabled} only. */
    public static ConfigSchema schema(boolean byDefault) {
        return ConfigSchema.of(attribute(byDefault));
    }

    /**
     * @param byDefault whether the driver is on when the block does not say (Nomad: raw_exec off, exec and java on)
     * @throws PluginConfigException for an unknown key (the first, by name) or a non-boolean {@code enabled}: a
     *     bad agent config, the agent does not start
     */
    public static boolean parse(Map<String, Object> config, boolean byDefault) throws PluginConfigException {
        ConfigValidation v = schema(byDefault).validate(config);
        if (!v.valid()) {
            ConfigProblem first = v.problems().get(0);
            throw new PluginConfigException(first.key(), first.message());
        }
        return v.view().bool("enabled");
    }
}
