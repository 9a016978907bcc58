package io.drover.cli.agent;

import io.drover.agent.Agent;
import io.drover.cli.format.TerminalText;
import io.drover.core.config.AgentConfig;
import io.drover.core.driver.DriverInfo;

/**
 * The agent's start-up banner on stderr: API address (tests and scripts parse the {@code API: } line), data_dir,
 * plugin_dir, each driver with its health, and plugin problems as {@code Warning:} lines.
 */
final class Banner {
    /** Prefix of the banner line that carries the API's address. */
    static final String API_PREFIX = "    API: ";

    private Banner() {}

    static String text(Agent agent, AgentConfig config, boolean dev) {
        StringBuilder sb = new StringBuilder("==> Drover agent started")
                .append(dev ? " in dev mode" : "").append("! Log data will stream in below:\n");
        sb.append(API_PREFIX).append(agent.address())
                .append(config.aclToken() != null ? " (token required)" : "").append('\n');
        sb.append("    data_dir: ").append(agent.dataDir()).append('\n');
        sb.append("    plugin_dir: ").append(config.pluginDir()).append('\n');
        if (agent.drivers().isEmpty()) {
            sb.append("    drivers: none\n");
        }
        for (DriverInfo d : agent.drivers()) {
            sb.append("    driver ").append(d.name()).append(": ").append(d.health().state().wireName());
            if (!d.health().description().isEmpty()) {
                sb.append(" (").append(TerminalText.escape(d.health().description())).append(')');
            }
            sb.append('\n');
        }
        agent.pluginProblems().forEach(p -> sb.append("Warning: ").append(TerminalText.escape(String.valueOf(p)))
                .append('\n'));
        return sb.toString();
    }
}
