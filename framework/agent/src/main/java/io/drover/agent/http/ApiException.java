package io.drover.agent.http;

/**
 * A request that cannot be served, with the status and the one-line message the client gets as
 * {@code {"error": "..."}}. Carries no stack trace: it is an answer, not a bug.
 */
public final class ApiException extends Exception {
    private final int status;

    public ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }
}
