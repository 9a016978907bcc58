package io.drover.agent;

import java.util.Map;

/**
 * A dispatch of a parameterized job (Nomad's {@code JobDispatchRequest}).
 *
 * @param meta merged over the job's meta in the child
 * @param payload the payload's bytes (empty when none), at most 16 KiB
 * @param idPrefixTemplate put between {@code /dispatch-} and the time in the child's id; "" when none
 */
public record DispatchRequest(Map<String, String> meta, byte[] payload, String idPrefixTemplate) {
    public DispatchRequest {
        meta = meta == null ? Map.of() : Map.copyOf(meta);
        payload = payload == null ? new byte[0] : payload;
        idPrefixTemplate = idPrefixTemplate == null ? "" : idPrefixTemplate;
    }

    /** A refused dispatch or forced launch, in Nomad's words; {@link #status()} is the HTTP status that fits. */
    public static final class DispatchException extends Exception {
        private final int status;

        DispatchException(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }

        /** 404 for a missing job, else 400. */
        public int status() {
            return status;
        }
    }
}
