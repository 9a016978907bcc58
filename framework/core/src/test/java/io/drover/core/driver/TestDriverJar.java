package io.drover.core.driver;

import io.drover.core.driver.testdrivers.BaseTestDriver;
import io.drover.core.testing.PluginJar;

/** Plugin JARs holding the {@code testdrivers} package, for the registry's loading tests. */
final class TestDriverJar {
    private TestDriverJar() {}

    static PluginJar plugin(String id) {
        return PluginJar.plugin(id).classesOf(BaseTestDriver.class);
    }
}
