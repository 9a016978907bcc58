package io.drover.cli.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * {@code 19:39:07.822 WARN  io.drover.core.engine.TaskRunner alloc_id=... task=web: message}: time, level,
 * logger, the MDC's alloc_id and task when present, the message, and the stack trace of an attached exception
 * (operators' logs only; users never see one).
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
        sb.append(": ").append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            sb.append(ThrowableProxyUtil.asString(thrown)).append(CoreConstants.LINE_SEPARATOR);
        }
        return sb.toString();
    }

    private static void appendMdc(StringBuilder sb, Map<String, String> mdc, String key) {
        String value = mdc == null ? null : mdc.get(key);
        if (value != null && !value.isEmpty()) {
            sb.append(' ').append(key).append('=').append(value);
        }
    }
}
