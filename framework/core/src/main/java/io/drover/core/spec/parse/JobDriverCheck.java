package io.drover.core.spec.parse;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import java.util.List;

/**
 * The checks of a job that need the loaded drivers: every task's driver is loaded, and the driver accepts the
 * task's {@code config} block ({@code TaskDriver.validateConfig}). Pure.
 */
public final class JobDriverCheck {
    private JobDriverCheck() {}

    /** @return one exception per problem, empty when the job can run */
    public static List<JobFileException> check(Job job, DriverCatalog drivers) {
        throw new UnsupportedOperationException("not written yet");
    }
}
