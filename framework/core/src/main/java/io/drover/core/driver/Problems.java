package io.drover.core.driver;

import java.lang.reflect.InvocationTargetException;

/** Wording of problem lines: one line each, no stack trace. Pure. */
final class Problems {
    private Problems() {}

    /** {@code "<file>: <reason>; skipped"}. */
    static String skipped(Object file, String reason) {
        return oneLine(file + ": " + reason + "; skipped");
    }

    /**
     * What went wrong, for a user: {@code "SimpleClassName: message"} of the exception, looking through
     * reflection wrappers ({@code InvocationTargetException}, {@code ExceptionInInitializerError}) to the cause.
     */
    static String describe(Throwable t) {
        Throwable e = t;
        while ((e instanceof InvocationTargetException || e instanceof ExceptionInInitializerError)
                && e.getCause() != null) {
            e = e.getCause();
        }
        String message = e.getMessage();
        String type = e.getClass().getSimpleName();
        return message == null || message.isBlank() ? type : type + ": " + message;
    }

    static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
