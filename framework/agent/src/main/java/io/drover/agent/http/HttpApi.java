package io.drover.agent.http;

import io.drover.agent.AllocIndexes;
import io.drover.agent.JobRegistry;
import io.drover.agent.NodeInfo;
import io.drover.agent.RaftIndex;
import io.drover.core.config.HttpConfig;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.driver.DriverInfo;
import io.drover.core.engine.Engine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The agent's HTTP API assembled in one place: every route group, the log followers and the server.
 * {@link #close()} ends log follows first (their clients see the stream end), then stops the server.
 */
public final class HttpApi implements AutoCloseable {
    private final ApiServer server;
    private final LogFollowers followers;
    private final EventBroker events;
    private final BlockingQueries blocking;

    private HttpApi(ApiServer server, LogFollowers followers, EventBroker events, BlockingQueries blocking) {
        this.server = server;
        this.followers = followers;
        this.events = events;
        this.blocking = blocking;
    }

    /**
     * What the API serves. {@code gcTrigger} runs on a server thread and must only schedule work.
     * {@code writesRefused} gives the one-line reason why changes cannot be recorded now (empty when they can):
     * requests that change state then get 503. {@code pluginProblems} are the plugin loading problems, one line each.
     */
    public record Services(Engine engine, JobRegistry jobs, DriverCatalog drivers,
            Supplier<List<DriverInfo>> driverInfo, Path dataDir, Runnable gcTrigger,
            Supplier<Optional<String>> writesRefused, Supplier<List<String>> pluginProblems, RaftIndex index,
            AllocIndexes allocIndexes, NodeInfo node, io.drover.agent.ParentJobs parents) {}

    /**
     * Builds the routes and starts serving on {@code bindAddr:port} (0: an ephemeral port).
     *
     * @param http the config's {@code http} block: Host names accepted besides the agent's own, connection limits
     */
    public static HttpApi start(Services s, String bindAddr, int port, String aclToken, HttpConfig http)
            throws IOException {
        LogFollowers followers = new LogFollowers();
        AllocLookup lookup = new AllocLookup(s.engine(), s.jobs());
        Router router = new Router();
        AllocJson allocJson = new AllocJson(s.jobs(), s.allocIndexes(), s.node());
        ApiServer[] bound = new ApiServer[1];
        new JobsHandler(s.jobs(), s.drivers(), s.writesRefused(), allocJson).addRoutes(router);
        new AllocationsHandler(s.engine(), lookup, allocJson).addRoutes(router);
        new NomadJobRoutes(s.jobs(), allocJson).addRoutes(router);
        new ParentJobRoutes(s.jobs(), s.parents(), s.writesRefused()).addRoutes(router);
        new ClusterRoutes(s.node(), s.driverInfo(), () -> bound[0] == null ? "" : hostPort(bound[0]), lookup)
                .addRoutes(router);
        new LogsHandler(s.engine(), lookup, s.dataDir(), followers).addRoutes(router);
        new ServiceRoutes(s.engine().services()).addRoutes(router);
        new VariableRoutes(s.engine().variables()).addRoutes(router);
        new SystemHandler(s.gcTrigger(), s.driverInfo(), s.pluginProblems()).addRoutes(router);
        EventBroker events = new EventBroker(s.jobs());
        s.engine().addListener(events);
        new EventStreamHandler(events).addRoutes(router);
        new UiHandler().addRoutes(router);
        try {
            ApiServer server = ApiServer.start(bindAddr, port, router, aclToken, http, s.writesRefused());
            bound[0] = server;
            BlockingQueries blocking = new BlockingQueries(s.index(), server::execute);
            server.indexes(s.index()::current, blocking);
            return new HttpApi(server, followers, events, blocking);
        } catch (IOException | RuntimeException e) {
            events.close();
            followers.close();
            throw e;
        }
    }

    /** {@code host:port} as Nomad's {@code HTTPAddr}: a wildcard bind is reached on the loopback. */
    private static String hostPort(ApiServer server) {
        String h = server.host();
        if (h.equals("0.0.0.0") || h.equals("::")) {
            h = "127.0.0.1";
        }
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + server.port();
    }

    /** Blocking queries waiting now. */
    public int waitingQueries() {
        return blocking.waiting();
    }

    public int port() {
        return server.port();
    }

    public String host() {
        return server.host();
    }

    /** Log follows streaming now (at most {@value LogFollowers#MAX_FOLLOWERS}). */
    public int activeLogFollows() {
        return followers.count();
    }

    /** Event streams open now (at most {@value EventBroker#MAX_SUBSCRIBERS}). */
    public int activeEventStreams() {
        return events.count();
    }

    @Override
    public void close() {
        events.close();
        blocking.close();
        followers.close();
        server.close();
    }
}
