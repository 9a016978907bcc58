package io.drover.core.driver.testdrivers;

import io.drover.driver.api.DriverContext;

/** A driver whose init blocks its thread until interrupted (a third party's hanging license server check). */
public final class BlockingInitDriver extends BaseTestDriver {
    @Override
    public String name() {
        return "slow_init";
    }

    @Override
    public void init(DriverContext context) {
        Hang.untilInterrupted();
    }
}
