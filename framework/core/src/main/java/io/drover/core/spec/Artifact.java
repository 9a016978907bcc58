package io.drover.core.spec;

import java.util.Map;

/**
 * One {@code artifact} block of a task, validated by the job parser.
 *
 * @param source go-getter style source: a path, {@code file://}, {@code http(s)://}, {@code git::<local path>};
 *     {@code ${...}} references kept verbatim (interpolated when the task starts)
 * @param destination relative to the task dir ({@code local/} by default); never escapes the allocation
 * @param options {@code options { checksum = "sha256:..."; archive = "false" }}
 * @param headers HTTP request headers
 */
public record Artifact(String source, String destination, ArtifactMode mode, Map<String, String> options,
        Map<String, String> headers) {
    public static final String DEFAULT_DESTINATION = "local/";

    public Artifact {
        options = Map.copyOf(options);
        headers = Map.copyOf(headers);
    }
}
