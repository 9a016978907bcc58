package io.drover.process;

/**
 * {@link ProcessSupervisor#attach} found neither the recorded process alive nor a record of how it ended; the
 * message says why (gone, pid reused, status file missing or unreadable). The task's end cannot be known.
 */
public final class ProcessGoneException extends Exception {
    ProcessGoneException(String message) {
        super(message);
    }
}
