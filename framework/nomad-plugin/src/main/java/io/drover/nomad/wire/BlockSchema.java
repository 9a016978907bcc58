package io.drover.nomad.wire;

import io.drover.nomad.proto.hclspec.Spec;
import java.util.Map;

/**
 * The schema of one config block Nomad sends (a plugin block or a task config): what Nomad's client decodes the
 * HCL with, and how Drover decodes the msgpack it then gets. Implementations are immutable; any thread.
 */
public interface BlockSchema {
    /** How messages name the block, e.g. {@code task config of driver "drover-raw_exec"}. */
    String block();

    /** The hclspec Nomad's client decodes the block with. */
    Spec toHclSpec();

    /**
     * Decodes the block's go-cty msgpack into the values a Drover driver takes, leaving out unset keys.
     *
     * @throws ConfigProblems naming every bad key, all at once
     */
    Map<String, Object> decode(byte[] msgpack) throws ConfigProblems;
}
