package io.drover.core.spec;

import java.util.List;

/**
 * A job's {@code parameterized} block (Nomad's {@code ParameterizedJobConfig}): the job itself runs nothing;
 * each dispatch creates a child job {@code <job>/dispatch-<unix seconds>-<8 hex>} with the dispatch's meta merged
 * into the job's and its payload written to the tasks' {@code dispatch_payload} files.
 */
public record Parameterized(PayloadRule payload, List<String> metaRequired, List<String> metaOptional) {
    /** Nomad's suffix before a dispatched child's time and random part. */
    public static final String CHILD_SUFFIX = "/dispatch-";
    /** Nomad's bound on a dispatch payload, in bytes ({@code DispatchPayloadSizeLimit}). */
    public static final int MAX_PAYLOAD = 16 * 1024;

    public Parameterized {
        payload = payload == null ? PayloadRule.OPTIONAL : payload;
        metaRequired = List.copyOf(metaRequired);
        metaOptional = List.copyOf(metaOptional);
    }
}
