package io.drover.driver.api;

/**
 * A driver could not do what was asked. {@link #recoverable()} says whether retrying (the restart policy)
 * may help; the message is shown to the user in a {@code Driver Failure} event.
 */
public class DriverException extends Exception {
    private final boolean recoverable;

    public DriverException(String message, boolean recoverable) {
        super(message);
        this.recoverable = recoverable;
    }

    public DriverException(String message, boolean recoverable, Throwable cause) {
        super(message, cause);
        this.recoverable = recoverable;
    }

    public boolean recoverable() {
        return recoverable;
    }
}
