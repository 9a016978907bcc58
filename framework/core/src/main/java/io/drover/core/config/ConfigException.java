package io.drover.core.config;

import io.drover.core.spec.parse.InputFileException;

/** An agent config file that cannot be used: the agent does not start. */
public class ConfigException extends InputFileException {
    public ConfigException(String file, int line, String key, String problem) {
        super(file, line, key, problem);
    }
}
