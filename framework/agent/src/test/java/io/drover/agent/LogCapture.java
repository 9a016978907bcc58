package io.drover.agent;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects {@code "LEVEL message"} of one logger's events into a list while open. */
final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {
    private final Logger logger;
    private final List<String> lines;

    private LogCapture(Logger logger, List<String> lines) {
        this.logger = logger;
        this.lines = lines;
    }

    static LogCapture of(Class<?> source, List<String> lines) {
        Logger logger = (Logger) LoggerFactory.getLogger(source);
        LogCapture c = new LogCapture(logger, lines);
        c.setContext(logger.getLoggerContext());
        c.start();
        logger.addAppender(c);
        return c;
    }

    @Override
    protected void append(ILoggingEvent e) {
        lines.add(e.getLevel() + " " + e.getFormattedMessage());
    }

    @Override
    public void close() {
        logger.detachAppender(this);
        stop();
    }
}
