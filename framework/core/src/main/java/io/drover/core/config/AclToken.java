package io.drover.core.config;

/**
 * The rules for {@code acl { token = "..." }}: a token must protect something. An empty one used to disable the
 * check silently, a blank one locked everyone out (HTTP trims header values, so no client can send it) and a
 * one-character one can be guessed in a few requests. Nomad's tokens are UUIDs (36 characters); at least
 * {@value #MIN_LENGTH} characters of no whitespace or control characters are required here. Pure and
 * thread-safe.
 */
public final class AclToken {
    /** The shortest token accepted. */
    public static final int MIN_LENGTH = 16;

    private AclToken() {}

    /** Why {@code token} cannot be the agent's API token, or null when it can (null itself is "no token"). */
    public static String problem(String token) {
        if (token == null) {
            return null;
        }
        if (token.isEmpty()) {
            return "must not be empty (to run without a token, remove the acl block)";
        }
        if (token.isBlank()) {
            return "must not be blank";
        }
        if (token.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            return "must not contain spaces or control characters (an HTTP header cannot carry them)";
        }
        if (token.length() < MIN_LENGTH) {
            return "must be at least " + MIN_LENGTH + " characters, found " + token.length()
                    + " (generate one with uuidgen)";
        }
        return null;
    }
}
