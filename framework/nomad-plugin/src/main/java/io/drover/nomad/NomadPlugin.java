package io.drover.nomad;

import io.drover.core.config.AgentConfig;
import io.drover.core.config.AgentConfigParser;
import io.drover.core.config.ConfigException;
import io.drover.core.time.RealTimers;
import io.drover.nomad.server.Handshake;
import io.drover.nomad.server.PluginHost;
import io.drover.nomad.server.PluginServer;
import io.drover.nomad.wire.DriverSchemas;
import io.drover.nomad.wire.NomadNames;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code drover nomad-plugin DRIVER [-config F]}: one Drover driver served to a Nomad client as an external task
 * driver plugin. Checks that a Nomad client launched it (go-plugin's handshake environment), starts the gRPC
 * server on the loopback address, prints the handshake line on {@code stdout} — the only thing ever written there:
 * {@code System.out} is pointed at stderr first, so no log line or stray print can corrupt the handshake — and
 * serves until go-plugin's controller Shutdown or a SIGTERM. Problems are one line each on stderr, exit 1.
 */
public final class NomadPlugin {
    public static final String VERSION = Optional.ofNullable(NomadPlugin.class.getPackage().getImplementationVersion())
            .orElse("0.1.0");

    private NomadPlugin() {}

    /**
     * Runs the plugin; blocks until it shuts down.
     *
     * @param config the Drover agent config whose {@code plugin "<driver>"} block and {@code plugin_dir} apply
     * @param pluginDir where the driver JARs are, when the config sets no {@code plugin_dir}
     * @param handshakeOut the real stdout (the caller has pointed {@code System.out} elsewhere)
     * @return the exit code: 0 after a shutdown, 1 for a problem (printed to {@code err})
     */
    public static int serve(String driver, AgentConfig config, Path pluginDir, Map<String, String> env,
            PrintStream handshakeOut, PrintStream err) {
        List<String> problems = Handshake.problems(env);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("Error: " + p));
            return 1;
        }
        Path dir = config.pluginDir() != null ? config.pluginDir() : pluginDir;
        Map<String, Object> block = config.plugins().getOrDefault(driver, Map.of());
        try (RealTimers timers = new RealTimers()) {
            PluginHost host = new PluginHost(driver, dir, block, timers);
            PluginServer server = new PluginServer(host, VERSION);
            int port;
            try {
                port = server.start(Handshake.of(env));
            } catch (IOException e) {
                err.println("Error: " + NomadNames.pluginName(driver) + ": cannot listen on 127.0.0.1: "
                        + e.getMessage());
                return 1;
            }
            Thread hook = new Thread(server::shutdown, "drover-nomad-signal");
            Runtime.getRuntime().addShutdownHook(hook);
            handshakeOut.println(Handshake.line(port));
            handshakeOut.flush();
            try {
                server.awaitShutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is exiting already
            }
            return 0;
        }
    }

    /** {@code java -cp ... io.drover.nomad.NomadPlugin DRIVER [-config F] [-plugin-dir D]}. */
    public static void main(String[] args) {
        PrintStream stdout = System.out;
        System.setOut(System.err);
        String driver = null;
        Path config = null;
        Path pluginDir = Path.of(System.getProperty("drover.home", ".")).resolve("plugins/dist");
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ((a.equals("-config") || a.equals("--config")) && i + 1 < args.length) {
                config = Path.of(args[++i]);
            } else if ((a.equals("-plugin-dir") || a.equals("--plugin-dir")) && i + 1 < args.length) {
                pluginDir = Path.of(args[++i]);
            } else if (driver == null && !a.startsWith("-")) {
                driver = a;
            } else {
                System.err.println("Error: unexpected argument \"" + a
                        + "\"; usage: nomad-plugin DRIVER [-config FILE] [-plugin-dir DIR]");
                System.exit(2);
            }
        }
        if (driver == null) {
            System.err.println("Error: usage: nomad-plugin DRIVER [-config FILE] [-plugin-dir DIR]");
            System.exit(2);
        }
        AgentConfig agent = AgentConfig.defaults();
        if (config != null) {
            try {
                if (!Files.isRegularFile(config)) {
                    throw new ConfigException(config.toString(), 0, "", Files.exists(config) ? "not a regular file"
                            : "no such file");
                }
                agent = AgentConfigParser.parse(config);
            } catch (ConfigException e) {
                System.err.println("Error: " + e.getMessage());
                System.exit(1);
            }
        }
        System.exit(serve(driver, agent, pluginDir, System.getenv(), stdout, System.err));
    }
}
