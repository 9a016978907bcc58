package io.drover.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Finding 12 in the agent's log: a task event's message must not drive the operator's terminal. */
class LineLayoutTest {
    @Test
    void theMessageAndTheMdcValuesAreEscapedAndAStackTraceKeepsItsLines() {
        LoggerContext context = new LoggerContext();
        LoggingEvent event = new LoggingEvent("fqcn", context.getLogger("io.drover.core.engine.TaskRunner"),
                Level.INFO, "Task event: type=Driver Failure msg=\"{}\"",
                new IllegalStateException("boom\u001b[2J"), new Object[] {"x\u001b]0;pwned\u0007\r\nfake line"});
        event.setMDCPropertyMap(Map.of("alloc_id", "5ae0", "task", "w\u001b[1A"));

        String line = new LineLayout().doLayout(event);

        assertThat(line.chars().filter(c -> c == 0x1b || c == 0x07 || c == '\r').count()).as(line).isZero();
        assertThat(line).contains("task=w\\x1b[1A: Task event: type=Driver Failure msg=\"x\\x1b]0;pwned\\x07\\r\\nfake line\"")
                .contains("IllegalStateException: boom\\x1b[2J")
                .contains("\n\tat io.drover.cli.logging.LineLayoutTest");
    }
}
