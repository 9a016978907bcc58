package io.drover.cli.agent;

import io.drover.agent.Agent;
import io.drover.agent.AgentStartException;
import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.LogLevels;
import io.drover.cli.PluginDirs;
import io.drover.cli.UserException;
import io.drover.cli.run.DevModePlugins;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.AgentConfigParser;
import io.drover.core.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code drover agent -config FILE [-dev]}: the long-running agent with the HTTP API. Runs until SIGTERM or
 * SIGINT, then stops gracefully and leaves tasks running for the next agent to re-attach (as Nomad's client
 * does). While data_dir refuses writes (full, read-only) the agent stays up: its store holds the changes and
 * retries, the API refuses changes with 503. Exit codes: 2 for a bad config, 1 when the agent cannot start
 * (data_dir, port, corrupt state store), when its state store stops for good (a change it cannot encode, checked
 * every {@value #STORE_CHECK_MILLIS} ms), or when a stop on SIGTERM had to leave changes unwritten because
 * data_dir still refused them.
 */
@Command(name = "agent",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {AgentCommand.SUMMARY,
            "Runs until SIGTERM or Ctrl-C; then stops gracefully and leaves tasks running for the next agent "
                    + "to re-attach.",
            "The banner on stderr names the API address ('API: http://HOST:PORT'), data_dir and drivers."},
        footer = {"", "Exit codes: 1 the agent could not start, its state store failed, or a stop left changes "
                + "unwritten (data_dir full or read-only), 2 bad config."})
public final class AgentCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Runs the Drover agent: driver plugins, durable state in data_dir and "
            + "the HTTP API.";

    static final long STORE_CHECK_MILLIS = 250;

    private final CliContext ctx;

    @Option(names = {"-config", "--config"}, paramLabel = "FILE",
            description = "Agent config file (HCL or JSON): data_dir, plugin_dir, log_level, bind_addr, "
                    + "ports.http, client, acl and plugin blocks. Required unless -dev.")
    private Path configFile;

    @Option(names = {"-dev", "--dev"},
            description = "Development mode: raw_exec enabled, data in a new temporary directory unless the "
                    + "config sets data_dir.")
    private boolean dev;

    AgentCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AgentConfig config = effective(load());
        LogLevels.set(config.logLevel());
        CountDownLatch stopped = new CountDownLatch(1);
        Agent agent;
        try {
            agent = Agent.start(config, null);
        } catch (AgentStartException e) {
            if (e.configError() != null) {
                throw e.configError(); // a driver refused its plugin block: a bad config, exit 2
            }
            throw new UserException("agent not started: " + e.getMessage(), ExitCodes.FAILED);
        }
        Thread hook = new Thread(() -> {
            ctx.err().println("==> Caught signal: stopping the agent; tasks are left running for re-attach");
            long live = agent.liveTasks();
            agent.close();
            int unwritten = agent.unwrittenChanges();
            if (unwritten > 0) {
                ctx.err().println("==> Agent stopped; " + unwritten + " change(s) could not be written to "
                        + agent.dataDir().resolve(Agent.STATE_DIR) + " (data_dir refused them) and are lost; the "
                        + "state on disk is consistent; " + live + " task(s) left running for the next agent to "
                        + "re-attach");
                ctx.err().flush();
                Runtime.getRuntime().halt(ExitCodes.FAILED); // exit non-zero: the stop was not clean
            }
            ctx.err().println("==> Agent stopped; " + live + " task(s) left running for the next agent to "
                    + "re-attach");
            ctx.err().flush();
            stopped.countDown();
        }, "drover-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ctx.err().print(Banner.text(agent, config, dev));
        ctx.err().flush();
        Optional<Throwable> failure = awaitStoreFailure(agent, stopped);
        if (failure.isEmpty()) {
            return ExitCodes.OK; // the JVM is exiting on a signal; the hook has closed the agent
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // a signal came at the same time: the hook closes the agent
        }
        agent.close();
        throw new UserException("the state store failed (" + failure.get().getMessage()
                + "): nothing more can be recorded, agent stopped; tasks are left running", ExitCodes.FAILED);
    }

    /** Blocks until the store fails (returned) or the shutdown hook has closed the agent (empty). */
    private static Optional<Throwable> awaitStoreFailure(Agent agent, CountDownLatch stopped)
            throws InterruptedException {
        while (!stopped.await(STORE_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
            Optional<Throwable> failure = agent.storeFailure();
            if (failure.isPresent()) {
                return failure;
            }
        }
        return Optional.empty();
    }

    private AgentConfig load() throws ConfigException {
        if (configFile == null) {
            if (!dev) {
                throw UserException.badInput("the agent needs -config FILE (or -dev for a throw-away agent)");
            }
            return AgentConfig.defaults();
        }
        if (!Files.isRegularFile(configFile)) {
            throw new ConfigException(configFile.toString(), 0, "",
                    Files.exists(configFile) ? "not a regular file" : "no such file");
        }
        return AgentConfigParser.parse(configFile);
    }

    /** Resolves plugin_dir as {@code drover run} does; -dev adds raw_exec and a temporary data_dir. */
    private AgentConfig effective(AgentConfig c) throws java.io.IOException {
        Path dataDir = c.dataDir();
        var plugins = c.plugins();
        if (dev) {
            plugins = DevModePlugins.merge(plugins);
            if (dataDir == null) {
                dataDir = Files.createTempDirectory("drover-agent-dev-");
            }
        }
        return new AgentConfig(dataDir, PluginDirs.resolve(c), c.logLevel(), c.bindAddr(), c.httpPort(),
                c.client(), plugins, c.aclToken(), c.source(), c.http());
    }
}
