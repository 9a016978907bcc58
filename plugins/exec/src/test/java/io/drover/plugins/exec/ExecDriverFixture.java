package io.drover.plugins.exec;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One healthy exec driver shared by the tests of a class ({@link HealthyExecDriver#startOrSkip}): made before the
 * first test (the whole class is skipped, with the driver's health line, where exec cannot run), closed after the
 * last. Register it on a static field:
 * {@code @RegisterExtension static final ExecDriverFixture EXEC = new ExecDriverFixture();}. Read from the tests'
 * thread only.
 */
final class ExecDriverFixture implements BeforeAllCallback, AfterAllCallback {
    private ExecDriver driver;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        driver = HealthyExecDriver.startOrSkip();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (driver != null) {
            driver.close();
            driver = null;
        }
    }

    /** The class's driver, initialised and healthy. */
    ExecDriver driver() {
        return driver;
    }
}
