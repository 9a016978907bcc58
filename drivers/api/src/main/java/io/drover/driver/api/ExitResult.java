package io.drover.driver.api;

/**
 * How a task ended.
 *
 * @param exitCode the process exit code; for a death by signal, 128 + signal, as a shell reports it
 * @param signal the signal number that ended the task, 0 when none did
 * @param oomKilled whether the task was killed for using too much memory
 * @param message a driver's message about the exit (mock's {@code exit_err_msg}), empty when none
 */
public record ExitResult(int exitCode, int signal, boolean oomKilled, String message) {
    public ExitResult {
        message = message == null ? "" : message;
    }

    public static ExitResult code(int exitCode) {
        return new ExitResult(exitCode, 0, false, "");
    }

    public static ExitResult signalled(int signal) {
        return new ExitResult(128 + signal, signal, false, "");
    }

    /** A run succeeded when it exited 0 and no signal ended it. */
    public boolean successful() {
        return exitCode == 0 && signal == 0 && !oomKilled;
    }
}
