package io.drover.plugins.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MockDriverTest {
    @TempDir
    Path dir;

    private final FakeTimers timers = new FakeTimers();
    private final MockDriver driver = new MockDriver();
    private int ids;

    @BeforeEach
    void init() throws DriverException {
        driver.init(new DriverContext(Map.of(), timers, "0.1.0"));
    }

    @Test
    void describesItself() {
        assertThat(driver.name()).isEqualTo("mock");
        assertThat(driver.capabilities().sendSignals()).isTrue();
        assertThat(driver.capabilities().recover()).isFalse();
        assertThat(driver.health().isHealthy()).isTrue();
        assertThat(driver.health().description()).isEqualTo("mock driver ready");
    }

    @Test
    void runsForRunForThenExitsWithExitCode() throws Exception {
        String id = started(Map.of("run_for", "10s", "exit_code", 3L, "exit_err_msg", "boom"));
        CompletableFuture<ExitResult> exit = driver.awaitExit(id).toCompletableFuture();

        timers.advance(Duration.ofMillis(9_999));
        assertThat(exit).isNotDone();
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);

        timers.advance(Duration.ofMillis(1));
        assertThat(exit).isCompletedWithValue(new ExitResult(3, 0, false, "boom"));
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.EXITED);
        assertThat(driver.inspect(id).exit().exitCode()).isEqualTo(3);
    }

    @Test
    void noRunForExitsRightAwayOnTheTimer() throws Exception {
        String id = started(Map.of());
        CompletableFuture<ExitResult> exit = driver.awaitExit(id).toCompletableFuture();
        assertThat(exit).isNotDone();
        timers.advance(Duration.ZERO);
        assertThat(exit).isCompletedWithValue(ExitResult.code(0));
    }

    @Test
    void awaitExitReturnsTheSameStageEachCall() throws Exception {
        String id = started(Map.of("run_for", "1s"));
        CompletionStage<ExitResult> first = driver.awaitExit(id);
        assertThat(driver.awaitExit(id) == first).as("same stage").isTrue();
    }

    @Test
    void exitSignalEndsTheTaskByThatSignal() throws Exception {
        String id = started(Map.of("run_for", "1s", "exit_signal", 11L));
        timers.advance(Duration.ofSeconds(1));
        ExitResult exit = driver.awaitExit(id).toCompletableFuture().getNow(null);
        assertThat(exit).isEqualTo(ExitResult.signalled(11));
        assertThat(exit.successful()).isFalse();
    }

    @Test
    void startErrorFailsTheStart() {
        CompletableFuture<TaskHandle> start = driver.start(task(Map.of("start_error", "no luck"))).toCompletableFuture();
        assertThat(start).isCompletedExceptionally();
        DriverException e = cause(start);
        assertThat(e.getMessage()).isEqualTo("no luck");
        assertThat(e.recoverable()).isFalse();

        CompletableFuture<TaskHandle> again = driver.start(task(Map.of("start_error", "try again",
                "start_error_recoverable", true))).toCompletableFuture();
        assertThat(cause(again).recoverable()).isTrue();
        assertThatThrownBy(() -> driver.inspect("task-2")).isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void startBlockForDelaysTheStartAndTheRun() throws Exception {
        CompletableFuture<TaskHandle> start = driver.start(task(Map.of("start_block_for", "2s", "run_for", "1s")))
                .toCompletableFuture();
        timers.advance(Duration.ofMillis(1_999));
        assertThat(start).isNotDone();
        timers.advance(Duration.ofMillis(1));
        assertThat(start).isCompleted();
        TaskHandle handle = start.join();
        assertThat(handle.driver()).isEqualTo("mock");
        assertThat(handle.startedAtNanos()).isEqualTo(nanos(timers.now()));

        CompletableFuture<ExitResult> exit = driver.awaitExit(handle.taskId()).toCompletableFuture();
        timers.advance(Duration.ofMillis(999));
        assertThat(exit).isNotDone();
        timers.advance(Duration.ofMillis(1));
        assertThat(exit).isCompletedWithValue(ExitResult.code(0));
    }

    @Test
    void terminatingSignalEndsTheTaskKillAfterLater() throws Exception {
        String id = started(Map.of("run_for", "1h", "kill_after", "3s"));
        CompletableFuture<ExitResult> exit = driver.awaitExit(id).toCompletableFuture();
        driver.signal(id, "SIGINT");
        driver.signal(id, "SIGTERM"); // a second one does not restart the clock nor change the signal
        timers.advance(Duration.ofMillis(2_999));
        assertThat(exit).isNotDone();
        timers.advance(Duration.ofMillis(1));
        assertThat(exit).isCompletedWithValue(ExitResult.signalled(2));
        assertThat(timers.pending()).isZero();
    }

    @Test
    void noKillAfterExitsAtOnce() throws Exception {
        String id = started(Map.of("run_for", "1h"));
        driver.signal(id, "TERM");
        assertThat(driver.awaitExit(id).toCompletableFuture()).isCompletedWithValue(ExitResult.signalled(15));
    }

    @Test
    void sigkillEndsTheTaskAtOnceEvenWhenSignalsAreIgnored() throws Exception {
        String id = started(Map.of("run_for", "1h", "kill_after", "10s", "ignore_signals", true,
                "signal_error", "nope"));
        CompletableFuture<ExitResult> exit = driver.awaitExit(id).toCompletableFuture();
        driver.signal(id, "SIGKILL");
        assertThat(exit).isCompletedWithValue(ExitResult.signalled(9));
        driver.signal(id, "SIGTERM"); // exited: a no-op, even with signal_error
    }

    @Test
    void ignoreSignalsKeepsRunningAfterSigterm() throws Exception {
        String id = started(Map.of("run_for", "1h", "ignore_signals", true));
        driver.signal(id, "SIGTERM");
        timers.advance(Duration.ofMinutes(59));
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
    }

    @Test
    void otherSignalsChangeNothing() throws Exception {
        String id = started(Map.of("run_for", "5s"));
        driver.signal(id, "SIGUSR1");
        timers.advance(Duration.ofSeconds(4));
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
        assertThatThrownBy(() -> driver.signal(id, "SIGNOPE")).isInstanceOf(DriverException.class)
                .hasMessageContaining("SIGNOPE");
    }

    @Test
    void signalErrorFailsTheSignal() throws Exception {
        String id = started(Map.of("run_for", "5s", "signal_error", "cannot signal"));
        assertThatThrownBy(() -> driver.signal(id, "SIGTERM")).isInstanceOf(DriverException.class)
                .hasMessage("cannot signal");
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
    }

    @Test
    void writesOutputAtStartThenRepeatsUntilExit() throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put("run_for", "10s");
        config.put("stdout_string", "out\n");
        config.put("stdout_repeat", 100L);
        config.put("stdout_repeat_duration", "3s");
        config.put("stderr_string", "err\n");
        config.put("stderr_repeat", 1L);
        config.put("stderr_repeat_duration", "1s");
        String id = started(config);
        Path out = dir.resolve("logs/t.stdout.0");
        Path err = dir.resolve("logs/t.stderr.0");
        assertThat(Files.readString(out)).isEqualTo("out\n");
        assertThat(Files.readString(err)).isEqualTo("err\n");

        timers.advance(Duration.ofSeconds(9));
        assertThat(Files.readString(out)).isEqualTo("out\n".repeat(4)); // at 0, 3, 6, 9 s
        assertThat(Files.readString(err)).isEqualTo("err\n".repeat(2)); // at 0 and 1 s, then no more
        timers.advance(Duration.ofMinutes(1));
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.EXITED);
        assertThat(Files.readString(out)).isEqualTo("out\n".repeat(4)); // exited at 10 s: stopped writing
        assertThat(timers.pending()).isZero();
    }

    @Test
    void nullLogPathsWriteNothing() throws Exception {
        String id = "t-null";
        TaskConfig config = new TaskConfig(id, "a", "j", "g", "t", Map.of("stdout_string", "x"), Map.of(), dir,
                dir, null, null);
        assertThat(driver.start(config).toCompletableFuture()).isCompleted();
        assertThat(driver.inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
    }

    @Test
    void destroyKillsARunningTaskAndIsIdempotent() throws Exception {
        String id = started(Map.of("run_for", "1h"));
        CompletableFuture<ExitResult> exit = driver.awaitExit(id).toCompletableFuture();
        driver.destroy(id);
        assertThat(exit).isCompletedWithValue(ExitResult.signalled(9));
        driver.destroy(id);
        driver.destroy("never-heard-of-it");
        assertThatThrownBy(() -> driver.awaitExit(id)).isInstanceOf(TaskNotFoundException.class);
        assertThat(timers.pending()).isZero();
    }

    @Test
    void unknownIdsAreNotFound() {
        assertThatThrownBy(() -> driver.awaitExit("x")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver.inspect("x")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver.signal("x", "SIGTERM")).isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void validateConfigReportsEachBadKey() {
        Map<String, Object> config = new HashMap<>();
        config.put("run_for", "ten seconds");
        config.put("exit_code", 1.5);
        config.put("kill_after", "-1s");
        config.put("start_error_recoverable", "yes");
        config.put("exit_err_msg", List.of("x"));
        config.put("comand", "echo");
        assertThat(driver.validateConfig(config)).extracting(ConfigProblem::key).containsExactly(
                "comand", "exit_code", "exit_err_msg", "kill_after", "run_for", "start_error_recoverable");
        assertThat(driver.validateConfig(config)).contains(
                new ConfigProblem("comand", "unknown key for the mock driver (allowed: run_for, exit_code,"
                        + " exit_signal, exit_err_msg, start_error, start_error_recoverable, start_block_for,"
                        + " kill_after, signal_error, ignore_signals, stdout_string, stdout_repeat,"
                        + " stdout_repeat_duration, stderr_string, stderr_repeat, stderr_repeat_duration)"),
                new ConfigProblem("run_for", "must be a duration like \"5s\" or \"1m30s\", not negative, found"
                        + " \"ten seconds\""));
        // ranges the schema cannot state are checked once the types are right
        assertThat(driver.validateConfig(Map.of("stdout_repeat", -2L, "exit_signal", "-1")))
                .containsExactly(new ConfigProblem("exit_signal", "must be a whole number, 0 or more"),
                        new ConfigProblem("stdout_repeat", "must be a whole number, 0 or more"));
        // HCL2's conversions: a number is a string, a quoted number or bool is one
        assertThat(driver.validateConfig(Map.of("exit_err_msg", 42L, "exit_code", "3", "ignore_signals", "true")))
                .isEmpty();
        assertThat(driver.validateConfig(Map.of("run_for", "1m30s", "exit_code", 2.0, "exit_signal", 15L,
                "ignore_signals", true, "stdout_string", "x"))).isEmpty();
    }

    @Test
    void startWithABadConfigFailsUnrecoverably() {
        CompletableFuture<TaskHandle> start = driver.start(task(Map.of("run_for", "soon"))).toCompletableFuture();
        assertThat(cause(start).getMessage()).isEqualTo("invalid mock config: run_for: must be a duration like "
                + "\"5s\" or \"1m30s\", not negative, found \"soon\"");
        assertThat(cause(start).recoverable()).isFalse();
    }

    @Test
    void pluginConfigMustBeEmpty() {
        assertThatThrownBy(() -> new MockDriver().init(new DriverContext(Map.of("enabled", true), timers, "0.1.0")))
                .isInstanceOf(io.drover.driver.api.PluginConfigException.class)
                .hasMessage("enabled: unknown key (this block takes no keys)");
        assertThat(new MockDriver().pluginConfigSchema()).contains(io.drover.driver.api.schema.ConfigSchema.EMPTY);
    }

    private String started(Map<String, Object> config) {
        TaskConfig task = task(config);
        CompletableFuture<TaskHandle> start = driver.start(task).toCompletableFuture();
        assertThat(start).isCompleted();
        return start.join().taskId();
    }

    private TaskConfig task(Map<String, Object> config) {
        String id = "task-" + (++ids);
        return new TaskConfig(id, "alloc-1", "job", "group", "t", config, Map.of(), dir.resolve("t"), dir,
                dir.resolve("logs/t.stdout.0"), dir.resolve("logs/t.stderr.0"));
    }

    private static DriverException cause(CompletableFuture<?> f) {
        Throwable[] caught = {null};
        f.whenComplete((v, e) -> caught[0] = e);
        assertThat(caught[0]).isInstanceOf(DriverException.class);
        return (DriverException) caught[0];
    }

    private static long nanos(java.time.Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
