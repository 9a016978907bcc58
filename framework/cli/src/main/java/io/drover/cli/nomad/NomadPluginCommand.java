package io.drover.cli.nomad;

import io.drover.cli.CliContext;
import io.drover.cli.ConfigOption;
import io.drover.cli.PluginDirs;
import io.drover.core.config.AgentConfig;
import io.drover.nomad.NomadPlugin;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code drover nomad-plugin DRIVER [-config F]}: serves one Drover driver to a Nomad client as an external task
 * driver plugin (docs/nomad.md). Started by the Nomad client, never by hand: stdout carries only go-plugin's
 * handshake line, so {@code System.out} is pointed at stderr before anything else runs.
 */
@Command(name = "nomad-plugin",
        mixinStandardHelpOptions = true,
        description = {NomadPluginCommand.SUMMARY,
            "The -config file's plugin \"DRIVER\" block and plugin_dir apply; Nomad's plugin block overrides the "
                    + "block key by key."})
public final class NomadPluginCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Serves one Drover driver to a Nomad client as an external task "
            + "driver plugin (go-plugin, gRPC). Nomad's client starts it from its plugin_dir; see docs/nomad.md.";

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "DRIVER", description = "raw_exec, exec, java or mock")
    private String driver;

    @Mixin
    private ConfigOption config;

    NomadPluginCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        System.setOut(System.err);
        AgentConfig agent = config.load();
        return NomadPlugin.serve(driver, agent, PluginDirs.resolve(agent), ctx.env(), ctx.out(), ctx.err());
    }
}
