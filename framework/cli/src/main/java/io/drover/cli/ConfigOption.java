package io.drover.cli;

import io.drover.core.config.AgentConfig;
import io.drover.core.config.AgentConfigParser;
import io.drover.core.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code -config FILE} option shared by commands that start drivers; built-in defaults when absent. */
public final class ConfigOption {
    private static final String HELP = "Agent config file (HCL or JSON): data_dir, plugin_dir, the client block "
            + "and plugin blocks. Without it: built-in defaults.";

    @Option(names = {"-config", "--config"}, paramLabel = "FILE", description = HELP)
    private Path file;

    /** Adds {@code -config} to a model built in code ({@link Specs}), as {@code @Mixin} does to an annotated one. */
    public void addTo(picocli.CommandLine.Model.CommandSpec spec) {
        spec.addOption(Specs.option(Path.class, "FILE", () -> file, v -> file = v, HELP, "-config", "--config"));
    }

    /** Whether {@code -config} was given. */
    public boolean given() {
        return file != null;
    }

    /** The parsed config, or the defaults. A missing or bad file is a {@link ConfigException} (exit code 2). */
    public AgentConfig load() throws ConfigException {
        if (file == null) {
            return AgentConfig.defaults();
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(file.toString(), 0, "", Files.exists(file) ? "not a regular file" : "no such file");
        }
        return AgentConfigParser.parse(file);
    }
}
