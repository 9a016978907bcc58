package org.example.drover.httpprobe;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigView;
import io.drover.driver.api.schema.InvalidConfigException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.pf4j.Extension;

/**
 * The http_probe driver: a task probes {@code url} every {@code interval} (GET) and runs until it is stopped; it
 * fails (exit code {@code fail_exit_code}) as soon as a probe does not answer {@code expect_status} in time, and
 * ends by itself (exit 0) after {@code max_probes} good probes when that is set. Every wait is a timer of the host
 * ({@link DriverContext#timers()}) or an asynchronous request of one shared {@link HttpClient} whose callbacks run on
 * the driver's two threads: no thread per task. Thread-safe.
 */
@Extension
public final class HttpProbeDriver implements TaskDriver {
    public static final String NAME = "http_probe";

    static final ConfigSchema TASK = ConfigSchema.of(
            Attribute.string("url").asRequired().describe("the http:// or https:// URL to probe (GET)"),
            Attribute.duration("interval").withDefault("10s").describe("the time between two probes"),
            Attribute.integer("expect_status").withDefault(200).describe("the HTTP status a good probe answers"),
            Attribute.duration("timeout").withDefault("5s").describe("how long a probe may take"),
            Attribute.integer("max_probes").withDefault(0).describe("end (exit 0) after this many good probes;"
                    + " 0: run until stopped"),
            Attribute.integer("fail_exit_code").withDefault(1).describe("the exit code when a probe fails"));

    static final ConfigSchema PLUGIN = ConfigSchema.of(
            Attribute.duration("min_interval").withDefault("10ms").describe("the shortest interval a task may ask for"));

    private final Map<String, Probe> probes = new ConcurrentHashMap<>();
    private volatile Timers timers;
    private volatile Duration minInterval = Duration.ofMillis(10);
    private volatile ExecutorService callbacks;
    private volatile HttpClient client;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, false);
    }

    @Override
    public Optional<ConfigSchema> taskConfigSchema() {
        return Optional.of(TASK);
    }

    @Override
    public Optional<ConfigSchema> pluginConfigSchema() {
        return Optional.of(PLUGIN);
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        minInterval = context.pluginConfig(PLUGIN).duration("min_interval");
        timers = context.timers();
        callbacks = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "http-probe-callbacks");
            t.setDaemon(true);
            return t;
        });
        client = HttpClient.newBuilder().executor(callbacks).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public DriverHealth health() {
        return DriverHealth.healthy("ready; " + probes.size() + " probe(s) running");
    }

    /** What the schema cannot state: the URL's scheme and host, and the interval's floor. */
    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        var checked = TASK.validate(config);
        if (!checked.valid()) {
            return List.of(); // the schema's problems; interpolated values are checked at start
        }
        ConfigView v = checked.view();
        try {
            URI uri = URI.create(v.string("url"));
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                return List.of(new ConfigProblem("url", "must be an http:// or https:// URL with a host, found \""
                        + v.string("url") + "\""));
            }
        } catch (IllegalArgumentException e) {
            return List.of(new ConfigProblem("url", "is not a URL: " + e.getMessage()));
        }
        if (v.duration("interval").compareTo(minInterval) < 0) {
            return List.of(new ConfigProblem("interval", "must be at least " + minInterval + " (min_interval)"));
        }
        return List.of();
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig task) {
        ConfigView config;
        try {
            config = task.config(TASK);
        } catch (InvalidConfigException e) {
            return CompletableFuture.failedFuture(new DriverException("invalid http_probe config: " + e.getMessage(),
                    false));
        }
        List<ConfigProblem> problems = validateConfig(task.config());
        if (!problems.isEmpty()) {
            return CompletableFuture.failedFuture(new DriverException("invalid http_probe config: "
                    + problems.get(0).key() + ": " + problems.get(0).message(), false));
        }
        Probe probe = new Probe(task.taskId(), config, client, timers, nanos(timers.now()));
        if (probes.putIfAbsent(task.taskId(), probe) != null) {
            return CompletableFuture.failedFuture(new DriverException("task " + task.taskId() + " already started",
                    false));
        }
        probe.begin();
        return CompletableFuture.completedFuture(new TaskHandle(task.taskId(), NAME, probe.startedAt, Map.of()));
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return probe(taskId).exit;
    }

    @Override
    public void signal(String taskId, String signal) throws DriverException {
        Probe probe = probe(taskId);
        String name = Signals.canonical(signal)
                .orElseThrow(() -> new DriverException("unknown signal \"" + signal + "\"", false));
        if (name.equals(Signals.SIGKILL) || name.equals("SIGTERM") || name.equals("SIGINT")) {
            probe.end(ExitResult.signalled(Signals.number(name)));
        }
    }

    @Override
    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        Probe probe = probe(taskId);
        ExitResult exit = probe.exit.getNow(null);
        return new TaskStatus(taskId, exit == null ? TaskStatus.State.RUNNING : TaskStatus.State.EXITED,
                probe.startedAt, exit);
    }

    @Override
    public void destroy(String taskId) {
        Probe probe = probes.remove(taskId);
        if (probe != null) {
            probe.end(ExitResult.signalled(9));
        }
    }

    @Override
    public void close() {
        ExecutorService pool = callbacks;
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private Probe probe(String taskId) throws TaskNotFoundException {
        Probe probe = probes.get(taskId);
        if (probe == null) {
            throw new TaskNotFoundException(taskId);
        }
        return probe;
    }

    static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
