package io.drover.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log levels the command line can raise at run time. The CLI logs at WARN (system property
 * {@code drover.log.level} overrides it, see CliLogConfigurator); {@code -verbose} shows Drover's INFO lines too.
 */
public final class LogLevels {
    private LogLevels() {}

    /** Lowers Drover's own loggers to INFO unless they already log more. */
    public static void verbose() {
        if (LoggerFactory.getLogger("io.drover") instanceof Logger drover
                && drover.getEffectiveLevel().toInt() > Level.INFO.toInt()) {
            drover.setLevel(Level.INFO);
        }
    }

    /**
     * Sets Drover's own loggers to {@code level} (the agent config's {@code log_level}: TRACE, DEBUG, INFO, WARN,
     * ERROR; anything else means INFO), unless the system property {@code drover.log.level} chose a level.
     */
    public static void set(String level) {
        if (System.getProperty("drover.log.level") == null
                && LoggerFactory.getLogger("io.drover") instanceof Logger drover) {
            drover.setLevel(Level.toLevel(level, Level.INFO));
        }
    }
}
