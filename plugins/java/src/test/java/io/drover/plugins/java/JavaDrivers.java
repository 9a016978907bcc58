package io.drover.plugins.java;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.process.WallTimers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The java drivers a test makes, each initialised as the agent does with its own plugin config (a second one
 * stands for a restarted agent), all closed after the test, before {@link io.drover.process.ProcessLeakCheck}
 * checks it. Register it on an instance field: {@code @RegisterExtension final JavaDrivers drivers = new
 * JavaDrivers();}. Used from the test's thread only.
 */
final class JavaDrivers implements AfterEachCallback {
    private final List<JavaDriver> made = new ArrayList<>();

    /** A new, initialised driver with this plugin config, closed after the test. */
    JavaDriver create(Map<String, Object> pluginConfig) throws DriverException {
        JavaDriver d = new JavaDriver();
        d.init(new DriverContext(pluginConfig, new WallTimers(), "0.1.0"));
        made.add(d);
        return d;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        made.forEach(JavaDriver::close);
        made.clear();
    }
}
