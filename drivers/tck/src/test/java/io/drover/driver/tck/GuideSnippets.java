package io.drover.driver.tck;

import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.Block;
import io.drover.driver.api.schema.BlockList;
import io.drover.driver.api.schema.ConfigSchema;
import java.util.Optional;

/**
 * The Java of docs/plugins.md, compiled: {@link GuideSnippetsTest} checks that every {@code java} block of the guide
 * is here, line for line (leading spaces aside). Edit both together.
 */
abstract class GuideSnippets implements TaskDriver {
    // docs/plugins.md, "Config schema"
    static final ConfigSchema TASK = ConfigSchema.of(
            Attribute.string("url").asRequired().describe("the URL to probe"),
            Attribute.duration("interval").withDefault("10s").describe("time between two probes"),
            Attribute.integer("expect_status").withDefault(200),
            Attribute.string("method").withDefault("GET").allowed("GET", "HEAD"),
            Attribute.stringList("args"),
            Attribute.stringMap("headers"),
            Block.of("tls", Attribute.bool("insecure")),
            BlockList.of("mount", Attribute.string("source").asRequired()).items(0, 4));

    @Override
    public Optional<ConfigSchema> taskConfigSchema() {
        return Optional.of(TASK);
    }
}
