package io.drover.cli;

/**
 * An error the user can fix, shown as one line {@code Error: <message>} and never with a stack trace.
 * Carries the command's exit code.
 */
public final class UserException extends RuntimeException {
    private final int exitCode;

    public UserException(String message, int exitCode) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    /** Bad input (exit code 2). */
    public static UserException badInput(String message) {
        return new UserException(message, ExitCodes.USAGE);
    }

    public int exitCode() {
        return exitCode;
    }
}
