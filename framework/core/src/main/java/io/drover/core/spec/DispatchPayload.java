package io.drover.core.spec;

/**
 * A task's {@code dispatch_payload { file = "..." }}: where, inside the task's {@code local/} directory, the
 * payload of a dispatch is written before the task's first run.
 *
 * @param file relative to {@code local/}; checked at parse not to leave it
 * @param payload the dispatch's payload, base64; null in a parameterized parent (nothing to write yet), and a
 *     task of a dispatch without payload gets an empty file, as in Nomad
 */
public record DispatchPayload(String file, String payload) {
    public DispatchPayload withPayload(String base64) {
        return new DispatchPayload(file, base64 == null ? "" : base64);
    }
}
