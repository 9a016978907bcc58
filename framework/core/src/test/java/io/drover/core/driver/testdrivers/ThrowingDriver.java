package io.drover.core.driver.testdrivers;

/** A driver whose constructor throws. */
public final class ThrowingDriver extends BaseTestDriver {
    public ThrowingDriver() {
        throw new IllegalStateException("no fake hardware here");
    }

    @Override
    public String name() {
        return "throwing";
    }
}
