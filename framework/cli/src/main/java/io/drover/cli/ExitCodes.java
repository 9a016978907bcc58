package io.drover.cli;

/** The exit codes of every drover command. */
public final class ExitCodes {
    /** Everything ran and no allocation failed. */
    public static final int OK = 0;
    /** An allocation failed (or, for any command, an unexpected internal error). */
    public static final int FAILED = 1;
    /** Bad input: usage, job file, agent config, unknown driver. Nothing ran. */
    public static final int USAGE = 2;

    private ExitCodes() {}
}
