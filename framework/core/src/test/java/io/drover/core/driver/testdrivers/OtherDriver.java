package io.drover.core.driver.testdrivers;

/** A working driver named "other"; counts its close() calls in its health. */
public final class OtherDriver extends BaseTestDriver {
    private int closes;

    @Override
    public String name() {
        return "other";
    }

    @Override
    public synchronized void close() {
        closes++;
    }

    @Override
    public synchronized io.drover.driver.api.DriverHealth health() {
        return io.drover.driver.api.DriverHealth.healthy("closed " + closes + " times");
    }
}
