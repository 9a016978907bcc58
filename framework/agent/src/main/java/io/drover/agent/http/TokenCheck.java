package io.drover.agent.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Function;

/**
 * The optional API token ({@code acl { token = "..." }}). When set, every request must carry it in Nomad's
 * {@code X-Nomad-Token} header or as {@code Authorization: Bearer <token>}: missing gives 401, wrong gives 403.
 * Compares SHA-256 digests with {@link MessageDigest#isEqual}, so the time taken reveals neither the token's
 * content nor its length. Thread-safe.
 */
final class TokenCheck {
    private final byte[] expected; // null: no token configured, every request passes

    TokenCheck(String token) {
        this.expected = token == null ? null : sha256(token);
    }

    /** @param header a request header's first value by name (case-insensitive), null when absent */
    void check(Function<String, String> header) throws ApiException {
        if (expected == null) {
            return;
        }
        String given = header.apply("X-Nomad-Token");
        if (given == null) {
            String auth = header.apply("Authorization");
            if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
                given = auth.substring(7).trim();
            }
        }
        if (given == null || given.isEmpty()) {
            throw new ApiException(401, "missing API token: send X-Nomad-Token or Authorization: Bearer");
        }
        if (!MessageDigest.isEqual(expected, sha256(given))) {
            throw new ApiException(403, "permission denied: wrong API token");
        }
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
