package io.drover.core.driver.testdrivers;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.PluginConfigException;

/** A third-party driver that checks its plugin config block and refuses a bad {@code region}. */
public final class BadConfigDriver extends BaseTestDriver {
    @Override
    public String name() {
        return "regional";
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        Object region = context.pluginConfig().get("region");
        if (region != null && !"eu".equals(region)) {
            throw new PluginConfigException("region", "must be \"eu\", found \"" + region + "\"");
        }
        super.init(context);
    }
}
