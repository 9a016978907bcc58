package io.drover.core.driver.testdrivers;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;

/** A driver whose init refuses to run. */
public final class FailingInitDriver extends BaseTestDriver {
    @Override
    public String name() {
        return "failing";
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        throw new DriverException("license key missing", false);
    }
}
