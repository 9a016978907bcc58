package io.drover.core.engine;

import java.io.IOException;

/**
 * A path the engine would derive from a name (a task's directory, its log files) that is not inside its
 * allocation directory, or a name that is not one safe path component ({@link io.drover.core.spec.SafeName}).
 * The task fails with a {@code Setup Failure} event carrying the message; nothing is created outside.
 */
final class UnsafePathException extends IOException {
    UnsafePathException(String message) {
        super(message, null);
    }
}
