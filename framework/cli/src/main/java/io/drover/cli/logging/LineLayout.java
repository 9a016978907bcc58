package io.drover.cli.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import io.drover.cli.format.TerminalText;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * {@code 19:39:07.822 WARN  io.drover.core.engine.TaskRunner alloc_id=... task=web: message}: time, level,
 * logger, the MDC's alloc_id and task when present, the message, and the stack trace of an attached exception
 * (operators' logs only; users never see one). The message and the MDC values are escaped ({@link TerminalText}):
 * they carry job and task names and the text of tasks and drivers (event messages), which must not drive the
 * operator's terminal nor fake a log line; each line of a stack trace is escaped past its indentation.
 */
public final class LineLayout extends LayoutBase<ILoggingEvent> {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder sb = new StringBuilder(160);
        sb.append(TIME.format(Instant.ofEpochMilli(event.getTimeStamp()))).append(' ');
        String level = event.getLevel().toString();
        sb.append(level).append(" ".repeat(Math.max(1, 6 - level.length())));
        sb.append(event.getLoggerName());
        Map<String, String> mdc = event.getMDCPropertyMap();
        appendMdc(sb, mdc, "alloc_id");
        appendMdc(sb, mdc, "task");
        sb.append(": ").append(TerminalText.escape(event.getFormattedMessage())).append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            for (String line : ThrowableProxyUtil.asString(thrown).split("\r?\n")) {
                int indent = 0;
                while (indent < line.length() && line.charAt(indent) == '\t') {
                    indent++;
                }
                sb.append(line, 0, indent).append(TerminalText.escape(line.substring(indent)))
                        .append(CoreConstants.LINE_SEPARATOR);
            }
        }
        return sb.toString();
    }

    private static void appendMdc(StringBuilder sb, Map<String, String> mdc, String key) {
        String value = mdc == null ? null : mdc.get(key);
        if (value != null && !value.isEmpty()) {
            sb.append(' ').append(key).append('=').append(TerminalText.escape(value));
        }
    }
}
