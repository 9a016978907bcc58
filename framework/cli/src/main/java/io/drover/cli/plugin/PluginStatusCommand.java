package io.drover.cli.plugin;

import io.drover.cli.CliContext;
import io.drover.cli.ConfigOption;
import io.drover.cli.ExitCodes;
import io.drover.cli.PluginDirs;
import io.drover.cli.Specs;
import io.drover.cli.client.ClientOptions;
import io.drover.cli.client.Json;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;

/**
 * {@code drover plugin status}: asks the running agent ({@code GET /v1/plugins}) for its driver plugins, and
 * prints what it could not load ({@code GET /v1/plugins/problems}: a refused plugin_dir, skipped JARs) as
 * warnings on stderr. With
 * {@code -config FILE} it instead loads that config's plugin directory in this process (no agent needed): a
 * check of a plugin_dir before an agent uses it; plugins that could not load are then warnings on stderr.
 */
@Command(name = "status",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {PluginStatusCommand.DESCRIPTION_1, PluginStatusCommand.DESCRIPTION_2})
public final class PluginStatusCommand implements Callable<Integer> {
    static final String DESCRIPTION_1 = "Lists the agent's driver plugins with version and health; what "
            + "the agent could not load (a refused plugin_dir, skipped JARs) is reported as warnings on stderr.";
    static final String DESCRIPTION_2 = "With -config: loads that config's plugin_dir in this process "
            + "instead (no agent needed); plugins that cannot be loaded are reported as warnings on stderr.";
    private static final String VERBOSE = "Also show each driver's declared config schemas (task config and "
            + "plugin config keys).";

    private final CliContext ctx;

    @Mixin
    private ConfigOption config;

    @Mixin
    private ClientOptions api;

    @picocli.CommandLine.Option(names = {"-verbose", "--verbose"}, description = VERBOSE)
    private boolean verbose;

    PluginStatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The command as picocli sets it from a command line without -config ({@code QuickArgs}: no picocli). */
    public static PluginStatusCommand of(CliContext ctx, ClientOptions api, boolean verbose) {
        PluginStatusCommand c = new PluginStatusCommand(ctx);
        c.config = new ConfigOption();
        c.api = api;
        c.verbose = verbose;
        return c;
    }

    /** The same model as the annotations', built in code (no reflection: {@link Specs}). */
    public static CommandSpec model(CliContext ctx) {
        PluginStatusCommand c = new PluginStatusCommand(ctx);
        c.config = new ConfigOption();
        c.api = new ClientOptions();
        CommandSpec spec = Specs.command(c, "status", false, DESCRIPTION_1, DESCRIPTION_2);
        c.config.addTo(spec);
        c.api.addTo(spec);
        spec.addOption(Specs.flag(() -> c.verbose, v -> c.verbose = v, VERBOSE, "-verbose", "--verbose"));
        return Specs.help(spec);
    }

    @Override
    public Integer call() throws Exception {
        return config.given() ? local() : remote();
    }

    private int remote() {
        Json plugins = api.client(ctx).read("/v1/plugins");
        for (Json problem : api.client(ctx).read("/v1/plugins/problems").path("Problems")) {
            ctx.err().println("Warning: " + problem.asText());
        }
        if (plugins.isEmpty()) {
            ctx.out().println("No driver plugins loaded by the agent");
            return ExitCodes.OK;
        }
        List<String[]> rows = header();
        for (Json p : plugins) {
            rows.add(new String[] {p.path("Name").asText(), p.path("PluginID").asText(), p.path("Version").asText(),
                p.path("Provider").asText(), p.path("Health").asText(), p.path("HealthDescription").asText()});
        }
        ctx.out().print(Columns.table(rows));
        if (verbose) {
            ctx.out().print(SchemaText.ofJson(plugins));
        }
        return ExitCodes.OK;
    }

    private int local() throws Exception {
        AgentConfig agent = config.load();
        Path dir = PluginDirs.resolve(agent);
        try (RealTimers timers = new RealTimers();
                DriverRegistry registry = DriverRegistry.load(dir, agent.plugins(), timers)) {
            registry.problems().forEach(p -> ctx.err().println("Warning: "
                    + io.drover.cli.format.TerminalText.escape(p.toString())));
            io.drover.cli.PluginBlocks.check(agent, registry, ctx.err());
            List<DriverInfo> drivers = registry.drivers();
            if (drivers.isEmpty()) {
                ctx.out().println("No driver plugins loaded from " + dir);
                return ExitCodes.OK;
            }
            ctx.out().print(table(drivers));
            if (verbose) {
                ctx.out().print(SchemaText.of(drivers));
            }
            return ExitCodes.OK;
        }
    }

    private static List<String[]> header() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Driver", "Plugin", "Version", "Provider", "Health", "Description"});
        return rows;
    }

    static String table(List<DriverInfo> drivers) {
        List<String[]> rows = header();
        for (DriverInfo d : drivers) {
            rows.add(new String[] {d.name(), d.pluginId(), d.version(), d.provider(),
                d.health().state().wireName(), d.health().description()});
        }
        return Columns.table(rows);
    }
}
