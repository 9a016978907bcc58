package io.drover.cli.plugin;

import io.drover.cli.CliContext;
import io.drover.cli.ConfigOption;
import io.drover.cli.ExitCodes;
import io.drover.cli.PluginDirs;
import io.drover.cli.format.Columns;
import io.drover.core.config.AgentConfig;
import io.drover.core.driver.DriverInfo;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.time.RealTimers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code drover plugin status}: loads the plugin directory in this process and lists each driver with its
 * plugin, version and health; plugins that could not load are warnings on stderr. (Once the agent exists this
 * asks the agent instead.)
 */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        description = {"Lists the driver plugins in plugin_dir with version and health.",
            "Plugins that cannot be loaded are reported as warnings on stderr and skipped."})
public final class PluginStatusCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ConfigOption config;

    PluginStatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AgentConfig agent = config.load();
        Path dir = PluginDirs.resolve(agent);
        try (RealTimers timers = new RealTimers();
                DriverRegistry registry = DriverRegistry.load(dir, agent.plugins(), timers)) {
            registry.problems().forEach(p -> ctx.err().println("Warning: " + p));
            List<DriverInfo> drivers = registry.drivers();
            if (drivers.isEmpty()) {
                ctx.out().println("No driver plugins loaded from " + dir);
                return ExitCodes.OK;
            }
            ctx.out().print(table(drivers));
            return ExitCodes.OK;
        }
    }

    static String table(List<DriverInfo> drivers) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Driver", "Plugin", "Version", "Provider", "Health", "Description"});
        for (DriverInfo d : drivers) {
            rows.add(new String[] {d.name(), d.pluginId(), d.version(), d.provider(),
                d.health().state().wireName(), d.health().description()});
        }
        return Columns.table(rows);
    }
}
