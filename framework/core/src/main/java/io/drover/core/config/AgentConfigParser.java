package io.drover.core.config;

import java.nio.file.Path;

/** Reads an agent config file (HCL or JSON, contract §4). Unknown keys and bad values are refused. */
public final class AgentConfigParser {
    private AgentConfigParser() {}

    public static AgentConfig parse(Path file) throws ConfigException {
        throw new UnsupportedOperationException("not written yet");
    }
}
