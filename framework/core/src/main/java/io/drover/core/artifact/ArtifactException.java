package io.drover.core.artifact;

/** An artifact could not be fetched or placed: a one-line message for the task's event, no stack trace. */
public final class ArtifactException extends Exception {
    private static final long serialVersionUID = 1L;

    public ArtifactException(String message) {
        super(message, null, false, false);
    }
}
