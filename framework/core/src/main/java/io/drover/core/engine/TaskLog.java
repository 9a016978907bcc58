package io.drover.core.engine;

import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Log lines about one task: each line carries the MDC keys {@code alloc_id} and {@code task} (the CLI's layout
 * prints them as {@code alloc_id=... task=...}, as Nomad's client does). The keys are set for the one call and
 * then restored to what they were, so nothing leaks to the next action of the shared engine pool, whatever thread
 * logs. Thread-safe (MDC is per thread).
 */
final class TaskLog {
    static final String ALLOC_ID = "alloc_id";
    static final String TASK = "task";

    private final Logger log;
    private final String allocId;
    private final String task;

    TaskLog(Logger log, String allocId, String task) {
        this.log = log;
        this.allocId = allocId;
        this.task = task;
    }

    void info(String format, Object... args) {
        if (log.isInfoEnabled()) {
            String[] saved = push();
            try {
                log.info(format, args);
            } finally {
                pop(saved);
            }
        }
    }

    void warn(String format, Object... args) {
        if (log.isWarnEnabled()) {
            String[] saved = push();
            try {
                log.warn(format, args);
            } finally {
                pop(saved);
            }
        }
    }

    void debug(String format, Object... args) {
        if (log.isDebugEnabled()) {
            String[] saved = push();
            try {
                log.debug(format, args);
            } finally {
                pop(saved);
            }
        }
    }

    private String[] push() {
        String[] saved = {MDC.get(ALLOC_ID), MDC.get(TASK)};
        MDC.put(ALLOC_ID, allocId);
        MDC.put(TASK, task);
        return saved;
    }

    private static void pop(String[] saved) {
        restore(ALLOC_ID, saved[0]);
        restore(TASK, saved[1]);
    }

    /** Puts {@code previous} back under {@code key}, or removes the key when there was none. */
    static void restore(String key, String previous) {
        if (previous == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, previous);
        }
    }
}
