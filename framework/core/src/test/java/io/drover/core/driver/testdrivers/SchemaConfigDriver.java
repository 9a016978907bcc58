package io.drover.core.driver.testdrivers;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigView;
import java.util.Optional;

/** A third-party driver that declares its plugin config schema and reads it through the typed view in init. */
public final class SchemaConfigDriver extends BaseTestDriver {
    public static final ConfigSchema PLUGIN = ConfigSchema.of(
            Attribute.string("region").asRequired().allowed("eu", "us"),
            Attribute.integer("retries").withDefault(3),
            Attribute.duration("timeout").withDefault("5s"));

    @Override
    public String name() {
        return "schematic";
    }

    @Override
    public Optional<ConfigSchema> pluginConfigSchema() {
        return Optional.of(PLUGIN);
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        ConfigView config = context.pluginConfig(PLUGIN);
        if (config.integer("retries") < 0) {
            throw new io.drover.driver.api.PluginConfigException("retries", "must be 0 or more");
        }
        super.init(context);
    }
}
