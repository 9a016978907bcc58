package io.drover.core.driver.testdrivers;

/** A working driver named "fake". */
public final class FakeDriver extends BaseTestDriver {
    @Override
    public String name() {
        return "fake";
    }
}
