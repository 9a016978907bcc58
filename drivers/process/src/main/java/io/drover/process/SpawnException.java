package io.drover.process;

/**
 * A process could not be started; the message carries the OS reason, e.g.
 * {@code exec: "nope": No such file or directory} or {@code chdir "/x": No such file or directory}.
 */
public final class SpawnException extends Exception {
    private final int errno;

    SpawnException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /** The errno behind the failure, 0 when it was found before asking the OS. */
    public int errno() {
        return errno;
    }
}
