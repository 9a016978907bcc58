package io.drover.driver.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskResources;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import io.drover.driver.api.schema.ConfigSchema;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link TaskDriver} contract as one abstract JUnit 5 suite: a driver's test extends it, says how to make its
 * driver and three task configs, and inherits {@value #TESTS} tests that go through the SPI only, as Drover's host
 * calls it. The tests of a class share one driver, initialised with {@link #pluginConfig()} on {@link #timers()}
 * before the first and closed after the last; tasks are laid out under a temp dir as the host lays them out
 * ({@link #task}).
 *
 * <p>What it proves: exit codes and exits awaited before and after the end; SIGKILL ends a task; a terminating
 * signal ends a task, an ignored one does not, and the host's kill escalation (kill signal, kill timeout, SIGKILL)
 * ends it anyway; unknown ids and signals; idempotent destroy; the config schema refuses a bad block and accepts
 * the good ones; 100 concurrent starts without a thread per task; init with a plugin config (and its schema's
 * refusal of a bad one); recover from the {@link TaskHandle} (when the driver says it can); health.
 *
 * <p>A driver that keeps time through {@link DriverContext#timers()} may run under a {@link VirtualTimers}:
 * override {@link #timers()} and {@link #await} (run timers until the stage completes) and {@link #letTimePass}.
 */
public abstract class DriverTck {
    /** How many tests the suite holds (the guide and the report quote it). */
    public static final int TESTS = 17;

    private static final AtomicInteger IDS = new AtomicInteger();
    /** The drivers each concrete test class opened (JUnit may run classes one after another in one JVM). */
    private static final Map<Class<?>, List<TaskDriver>> OPENED = new java.util.concurrent.ConcurrentHashMap<>();
    private TaskDriver driver;

    /** The temp dir tasks are laid out under; JUnit makes a new one per test. */
    @TempDir
    protected Path tckDir;

    // ---- what a driver's test says ----

    /** A new, uninitialised instance of the driver, as the host creates one (public no-arg constructor). */
    protected abstract TaskDriver createDriver() throws Exception;

    /** A task config whose task exits by itself with {@code code}. */
    protected abstract Map<String, Object> exitsWith(int code);

    /** A task config whose task runs until it is signalled (SIGTERM and SIGKILL end it). */
    protected abstract Map<String, Object> runsUntilKilled();

    /**
     * A task config whose task ignores terminating signals (only SIGKILL ends it); empty when the driver cannot
     * make one (the signal tests that need it are then skipped).
     */
    protected Optional<Map<String, Object>> ignoresTerminatingSignals() {
        return Optional.empty();
    }

    /**
     * Returns once a task started with {@link #ignoresTerminatingSignals()} ignores them (a process installs its
     * handler a moment after it starts): by default at once. A process driver's test polls for a sign the task
     * leaves (a file), with a deadline.
     */
    protected void awaitSignalsIgnored(TaskConfig task) throws Exception {}

    /** A task config the driver must refuse; by default a valid one with an unknown key. */
    protected Map<String, Object> invalidConfig() {
        Map<String, Object> bad = new HashMap<>(runsUntilKilled());
        bad.put("tck_no_such_key", "x");
        return bad;
    }

    /** The operator's {@code plugin "<name>" { config { ... } }} block the driver is initialised with. */
    protected Map<String, Object> pluginConfig() {
        return Map.of();
    }

    /**
     * How many tasks {@code aHundredConcurrentStartsNeedNoThreadPerTask} starts at once: 100. A driver whose task
     * is heavy (a JVM each) may lower it, saying why.
     */
    protected int concurrentStarts() {
        return 100;
    }

    /** The host's clock; {@link WallTimers} by default. Called once per driver. */
    protected Timers timers() {
        return new WallTimers();
    }

    /** The environment of a task, as the host gives it (the task env plus NOMAD_* variables). */
    protected Map<String, String> env(String taskName) {
        return Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "NOMAD_TASK_NAME", taskName);
    }

    /** A new, initialised driver; by default {@link #createDriver()} then {@code init} with the plugin config. */
    protected TaskDriver newDriver() throws Exception {
        TaskDriver d = createDriver();
        d.init(new DriverContext(pluginConfig(), timers(), "tck"));
        return d;
    }

    /** Waits for a stage (at most 30 s); a driver on a virtual clock runs its timers here. */
    protected <T> T await(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /**
     * Lets time pass for a check that something does <em>not</em> happen (an ignored signal): by default a
     * bounded wait for the task's exit that must time out. A virtual clock advances instead.
     *
     * @return whether the task is still running afterwards
     */
    protected boolean letTimePass(TaskDriver d, String taskId, Duration duration) throws Exception {
        try {
            d.awaitExit(taskId).toCompletableFuture().get(duration.toMillis(), TimeUnit.MILLISECONDS);
            return false;
        } catch (TimeoutException e) {
            return d.inspect(taskId).state() == TaskStatus.State.RUNNING;
        }
    }

    /** One run of a task, laid out as the host lays it out: {@code <alloc>/<task>}, logs in {@code alloc/logs}. */
    protected TaskConfig task(String taskId, Map<String, Object> config) {
        return TckTasks.task(tckDir, taskId, config, this::env);
    }

    // ---- the suite ----

    /** The driver of this test, initialised. */
    protected final TaskDriver driver() {
        return driver;
    }

    /** One driver per test class, made before its first test (a driver is shared by all tasks, as in an agent). */
    @BeforeEach
    final void openDriver() throws Exception {
        List<TaskDriver> mine = OPENED.computeIfAbsent(getClass(), c -> new java.util.concurrent.CopyOnWriteArrayList<>());
        if (mine.isEmpty()) {
            mine.add(newDriver());
        }
        driver = mine.get(0);
    }

    /**
     * Closes the class's drivers after its last test, as an agent closes them when it exits: not after each test,
     * because a process driver's reaper must outlive the processes its tests' tasks leave exiting.
     */
    @AfterAll
    static void closeDrivers(TestInfo info) {
        List<TaskDriver> mine = OPENED.remove(info.getTestClass().orElseThrow());
        if (mine != null) {
            mine.forEach(TaskDriver::close);
        }
    }

    /** A further driver of this test class (a restarted agent's), closed with the others. */
    private TaskDriver open(TaskDriver d) {
        OPENED.get(getClass()).add(d);
        return d;
    }

    protected String newId() {
        return "tck/" + getClass().getSimpleName() + "/" + IDS.incrementAndGet();
    }

    private String started(TaskDriver d, Map<String, Object> config) throws Exception {
        String id = newId();
        TaskHandle handle = await(d.start(task(id, config)));
        assertThat(handle.taskId()).isEqualTo(id);
        assertThat(handle.driver()).isEqualTo(d.name());
        return id;
    }

    private String startedIgnoring(TaskDriver d, Map<String, Object> config) throws Exception {
        String id = newId();
        TaskConfig task = task(id, config);
        await(d.start(task));
        awaitSignalsIgnored(task);
        return id;
    }

    private void killAndForget(TaskDriver d, String id) throws Exception {
        d.signal(id, "SIGKILL");
        await(d.awaitExit(id));
        d.destroy(id);
    }

    @Test
    void startThenAwaitExitReportsTheExitCode() throws Exception {
        String id = started(driver, exitsWith(3));
        ExitResult exit = await(driver.awaitExit(id));
        assertThat(exit.exitCode()).isEqualTo(3);
        assertThat(exit.signal()).isZero();
        assertThat(exit.successful()).isFalse();
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.EXITED);
        assertThat(driver.inspect(id).exit()).isEqualTo(exit);
        driver.destroy(id);
    }

    @Test
    void aRunWithResourcesExitsAsOneWithout() throws Exception {
        // Nomad's defaults, what Drover's host hands every task that sets none: a driver that enforces them (the
        // process drivers: a cgroup per run) must still report the same exit, and inspect must agree with it
        String id = newId();
        TaskHandle handle = await(driver.start(task(id, exitsWith(3)).withResources(new TaskResources(100, 300, 0))));
        assertThat(handle.taskId()).isEqualTo(id);
        ExitResult exit = await(driver.awaitExit(id));
        assertThat(exit.exitCode()).isEqualTo(3);
        assertThat(exit.oomKilled()).isFalse();
        assertThat(driver.inspect(id).exit()).isEqualTo(exit);
        driver.destroy(id);
    }

    @Test
    void successIsExitCodeZero() throws Exception {
        String id = started(driver, exitsWith(0));
        assertThat(await(driver.awaitExit(id)).successful()).isTrue();
        driver.destroy(id);
    }

    @Test
    void awaitExitAfterTheExitAnswersTheSameResult() throws Exception {
        String id = started(driver, exitsWith(4));
        ExitResult first = await(driver.awaitExit(id));
        CompletableFuture<ExitResult> later = driver.awaitExit(id).toCompletableFuture();
        assertThat(await(later)).isEqualTo(first);
        assertThat(await(driver.awaitExit(id))).isEqualTo(first); // any number of times
        driver.destroy(id);
    }

    @Test
    void sigkillEndsARunningTask() throws Exception {
        String id = started(driver, runsUntilKilled());
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
        assertThat(driver.inspect(id).exit()).isNull();
        driver.signal(id, "SIGKILL");
        ExitResult exit = await(driver.awaitExit(id));
        assertThat(exit.signal()).isEqualTo(9);
        assertThat(exit.exitCode()).isEqualTo(137);
        driver.signal(id, "SIGTERM"); // exited: a no-op
        driver.destroy(id);
    }

    @Test
    void aTerminatingSignalEndsTheTask() throws Exception {
        Assumptions.assumeTrue(driver.capabilities().sendSignals(), "the driver sends SIGKILL only");
        String id = started(driver, runsUntilKilled());
        driver.signal(id, "SIGTERM");
        ExitResult exit = await(driver.awaitExit(id));
        assertThat(exit.successful()).as("a task ended by SIGTERM").isFalse();
        driver.destroy(id);
    }

    @Test
    void anIgnoredSignalLeavesTheTaskRunning() throws Exception {
        Assumptions.assumeTrue(driver.capabilities().sendSignals(), "the driver sends SIGKILL only");
        Optional<Map<String, Object>> ignoring = ignoresTerminatingSignals();
        Assumptions.assumeTrue(ignoring.isPresent(), "no task config that ignores signals");
        String id = startedIgnoring(driver, ignoring.get());
        driver.signal(id, "SIGTERM");
        assertThat(letTimePass(driver, id, Duration.ofMillis(300))).as("still running after SIGTERM").isTrue();
        killAndForget(driver, id);
    }

    /**
     * The host's kill sequence, as Drover's engine runs it (drivers do not escalate): the kill signal, then after
     * the kill timeout SIGKILL from the host's timer thread, which must end a task that ignored the first.
     */
    @Test
    void theHostsKillEscalationEndsATaskThatIgnoresTheSignal() throws Exception {
        Optional<Map<String, Object>> ignoring = ignoresTerminatingSignals();
        Assumptions.assumeTrue(ignoring.isPresent(), "no task config that ignores signals");
        Timers clock = timers();
        TaskDriver d = open(createDriver());
        d.init(new DriverContext(pluginConfig(), clock, "tck"));
        String id = startedIgnoring(d, ignoring.get());
        if (d.capabilities().sendSignals()) {
            d.signal(id, "SIGTERM");
        }
        AtomicInteger escalations = new AtomicInteger();
        clock.schedule(Duration.ofMillis(200), () -> {
            escalations.incrementAndGet();
            try {
                d.signal(id, "SIGKILL");
            } catch (DriverException e) {
                throw new IllegalStateException(e);
            }
        });
        ExitResult exit = await(d.awaitExit(id));
        assertThat(escalations).hasValue(1);
        assertThat(exit.signal()).isEqualTo(9);
        d.destroy(id);
    }

    @Test
    void unknownSignalIsADriverException() throws Exception {
        String id = started(driver, runsUntilKilled());
        assertThatThrownBy(() -> driver.signal(id, "SIGNOPE")).isInstanceOf(DriverException.class)
                .isNotInstanceOf(TaskNotFoundException.class);
        driver.signal(id, "KILL"); // without the SIG prefix
        await(driver.awaitExit(id));
        driver.destroy(id);
    }

    @Test
    void destroyIsIdempotentAndForgetsTheTask() throws Exception {
        String id = started(driver, runsUntilKilled());
        driver.destroy(id); // kills a running task
        driver.destroy(id);
        assertThatThrownBy(() -> driver.inspect(id)).isInstanceOf(TaskNotFoundException.class);
        driver.destroy("never-started");
    }

    @Test
    void unknownIdsAreTaskNotFound() {
        assertThatThrownBy(() -> driver.awaitExit("nope")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver.signal("nope", "SIGTERM")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver.inspect("nope")).isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void validConfigsPassTheSchemaAndValidateConfig() {
        for (Map<String, Object> good : goodConfigs()) {
            driver.taskConfigSchema().ifPresent(schema -> assertThat(schema.check(good).problems())
                    .as("schema problems of %s", good).isEmpty());
            assertThat(driver.validateConfig(good)).as("validateConfig of %s", good).isEmpty();
        }
    }

    /**
     * A bad block is refused before anything runs (the schema, as the host checks it, else validateConfig), each
     * problem naming a key; and a start with it fails, unrecoverably, without running anything.
     */
    @Test
    void aBadConfigIsRefusedThroughTheSchemaAndAtStart() throws Exception {
        Map<String, Object> bad = invalidConfig();
        List<ConfigProblem> problems = new ArrayList<>();
        driver.taskConfigSchema().ifPresent(schema -> problems.addAll(schema.check(bad).problems()));
        if (problems.isEmpty()) {
            problems.addAll(driver.validateConfig(bad));
        }
        assertThat(problems).as("problems of %s", bad).isNotEmpty().allSatisfy(p -> {
            assertThat(p.message()).isNotBlank();
            assertThat(p.key()).isNotNull();
        });
        if (bad.containsKey("tck_no_such_key")) {
            assertThat(problems).extracting(ConfigProblem::key).contains("tck_no_such_key");
        }
        String id = newId();
        try {
            await(driver.start(task(id, bad)));
            fail("start accepted " + bad);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(DriverException.class);
            assertThat(((DriverException) e.getCause()).recoverable()).isFalse();
        }
        assertThatThrownBy(() -> driver.inspect(id)).isInstanceOf(TaskNotFoundException.class);
    }

    /**
     * A hundred starts at once from a few host threads: every task runs, and the driver holds far fewer threads
     * than tasks (Drover holds 10,000 tasks on a bounded pool: no thread may wait for a task).
     */
    @Test
    void aHundredConcurrentStartsNeedNoThreadPerTask() throws Exception {
        int tasks = concurrentStarts();
        int before = ManagementFactory.getThreadMXBean().getThreadCount();
        ExecutorService host = Executors.newFixedThreadPool(4);
        List<String> ids = new ArrayList<>();
        try {
            List<CompletableFuture<CompletionStage<TaskHandle>>> starts = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                String id = newId();
                ids.add(id);
                TaskConfig config = task(id, runsUntilKilled());
                starts.add(CompletableFuture.supplyAsync(() -> driver.start(config), host));
            }
            for (CompletableFuture<CompletionStage<TaskHandle>> s : starts) {
                await(s.get(30, TimeUnit.SECONDS)); // the host thread's call returned; then the start itself
            }
            for (String id : ids) {
                assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
            }
            int during = ManagementFactory.getThreadMXBean().getThreadCount();
            assertThat(during - before).as("threads added for %d running tasks (4 of them the test's)", tasks)
                    .isLessThan(Math.max(tasks / 2, 12));
        } finally {
            host.shutdownNow();
            for (String id : ids) {
                try {
                    driver.signal(id, "SIGKILL");
                } catch (TaskNotFoundException e) {
                    // never started
                }
            }
            for (String id : ids) {
                try {
                    assertThat(await(driver.awaitExit(id)).signal()).isEqualTo(9);
                    driver.destroy(id);
                } catch (TaskNotFoundException e) {
                    // never started
                }
            }
        }
    }

    /**
     * {@code init} with the plugin config works (and is healthy afterwards); with a plugin config schema, a block
     * with an unknown key is refused by the schema, naming the key, and by {@code init} itself.
     */
    @Test
    void initTakesThePluginConfigAndItsSchemaRefusesABadOne() throws Exception {
        TaskDriver fresh = open(createDriver());
        Optional<ConfigSchema> schema = fresh.pluginConfigSchema();
        schema.ifPresent(s -> assertThat(s.validate(pluginConfig()).problems()).isEmpty());
        fresh.init(new DriverContext(pluginConfig(), timers(), "tck"));
        assertThat(fresh.health()).isNotNull();
        if (schema.isPresent()) {
            Map<String, Object> bad = new HashMap<>(pluginConfig());
            bad.put("tck_no_such_key", true);
            assertThat(schema.get().validate(bad).problems()).extracting(ConfigProblem::key)
                    .contains("tck_no_such_key");
            TaskDriver refusing = open(createDriver());
            assertThatThrownBy(() -> refusing.init(new DriverContext(bad, timers(), "tck")))
                    .isInstanceOf(PluginConfigException.class)
                    .satisfies(e -> assertThat(((PluginConfigException) e).problem().key())
                            .isEqualTo("tck_no_such_key"));
        }
    }

    /**
     * A driver that can recover re-attaches, in a new instance (a restarted agent), to a task from the handle its
     * {@code start} returned (with its driver state): the recovered task runs, takes signals and reports its exit.
     */
    @Test
    void recoverReattachesFromTheTaskHandle() throws Exception {
        Assumptions.assumeTrue(driver.capabilities().recover(), "the driver cannot recover tasks");
        String id = newId();
        TaskHandle handle = await(driver.start(task(id, runsUntilKilled())));
        TaskHandle persisted = new TaskHandle(handle.taskId(), handle.driver(), handle.startedAtNanos(),
                Map.copyOf(handle.state()));
        TaskDriver restarted = open(newDriver());
        TaskHandle recovered = restarted.recover(persisted);
        assertThat(recovered.taskId()).isEqualTo(id);
        assertThat(restarted.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
        restarted.signal(id, "SIGKILL");
        assertThat(await(restarted.awaitExit(id)).signal()).isEqualTo(9);
        restarted.destroy(id);
        driver.destroy(id);
    }

    @Test
    void healthIsReportedWithADescription() {
        DriverHealth health = driver.health();
        assertThat(health).isNotNull();
        assertThat(health.state()).isNotNull();
        assertThat(health.description()).isNotBlank();
        assertThat(health.isHealthy()).as("health of the driver under test: %s", health.description()).isTrue();
    }

    @Test
    void theSchemasDescribeThemselvesAndMapOntoHclspec() {
        for (Optional<ConfigSchema> schema : List.of(driver.taskConfigSchema(), driver.pluginConfigSchema())) {
            schema.ifPresent(s -> {
                assertThat(s.hclspec()).startsWith("Object {");
                assertThat(s.describe()).hasSize(s.keys().size());
                assertThat(s.lines()).hasSizeGreaterThanOrEqualTo(s.keys().size());
            });
        }
    }

    private List<Map<String, Object>> goodConfigs() {
        List<Map<String, Object>> good = new ArrayList<>(List.of(exitsWith(0), exitsWith(3), runsUntilKilled()));
        ignoresTerminatingSignals().ifPresent(good::add);
        return good;
    }
}
