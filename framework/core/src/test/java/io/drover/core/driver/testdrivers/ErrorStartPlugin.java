package io.drover.core.driver.testdrivers;

import org.pf4j.Plugin;

/** A plugin class whose {@code start()} throws an Error (not an Exception, not a LinkageError). */
public final class ErrorStartPlugin extends Plugin {
    @Override
    public void start() {
        throw new AssertionError("plugin start broke an invariant");
    }
}
