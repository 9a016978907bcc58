package io.drover.core.driver.testdrivers;

import org.pf4j.Plugin;

/** A plugin class whose {@code start()} blocks until interrupted. */
public final class BlockingStartPlugin extends Plugin {
    @Override
    public void start() {
        Hang.untilInterrupted();
    }
}
