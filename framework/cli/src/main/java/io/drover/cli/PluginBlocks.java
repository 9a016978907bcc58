package io.drover.cli;

import io.drover.core.config.AgentConfig;
import io.drover.core.config.ConfigException;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.driver.PluginConfigProblem;
import java.io.PrintStream;

/**
 * The config's {@code plugin "<name>"} blocks against the drivers that loaded, for the commands that load drivers
 * in-process ({@code run}, {@code plugin status -config}), as the agent checks them at start.
 */
public final class PluginBlocks {
    private PluginBlocks() {}

    /**
     * Prints a {@code Warning:} line per block the file sets that names no loaded driver; throws the first driver's
     * refusal of its block as a bad config (exit 2), naming file, line and key.
     */
    public static void check(AgentConfig config, DriverRegistry registry, PrintStream err) throws ConfigException {
        if (!registry.configProblems().isEmpty()) {
            PluginConfigProblem p = registry.configProblems().get(0);
            throw config.source().error(p.keyPath(), p.problem());
        }
        registry.unusedPluginBlocks(config).forEach(w -> err.println("Warning: " + io.drover.cli.format.TerminalText.escape(w)));
    }
}
