package io.drover.core.spec.cron;

/** A cron expression that does not parse; the message names the field and what is wrong, in one line. */
public final class CronException extends Exception {
    public CronException(String message) {
        super(message, null, false, false);
    }
}
