package io.drover.plugins.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.process.Await;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TestTasks;
import io.drover.process.WallTimers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The java driver with real child JVMs (two in this class) and the failures that start none. */
@ExtendWith(ProcessLeakCheck.class)
class JavaDriverTest {
    private static JavaDriver driver;

    @TempDir
    Path dir;

    @BeforeAll
    static void init() throws Exception {
        driver = JavaFixture.driver();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    private static <T> T await(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void sigtermRunsTheShutdownHooksAndTheJvmExits143() throws Exception {
        Path ready = JavaFixture.writableByTasks(dir).resolve("ready");
        Path hook = ready.resolveSibling("hook");
        TaskConfig task = TestTasks.task(dir, "java/term",
                JavaFixture.fixture("Sleeps", ready.toString(), hook.toString()), Map.of());
        await(driver.start(task));
        Await.until("the child JVM to register its hook", Duration.ofSeconds(20), () -> Files.exists(ready));

        driver.signal(task.taskId(), "SIGTERM");
        ExitResult exit = await(driver.awaitExit(task.taskId()));

        // the JVM handles SIGTERM itself: it runs the hooks and exits 128 + 15, not killed by the signal
        assertThat(exit).isEqualTo(ExitResult.code(143));
        assertThat(hook).hasContent("hook ran");
        driver.destroy(task.taskId());
    }

    @Test
    void aSecondDriverStandingForARestartedAgentReattachesToTheRunningJvmAndRecordsItsTrueExit() throws Exception {
        Path ready = JavaFixture.writableByTasks(dir).resolve("ready");
        Path hook = ready.resolveSibling("hook");
        TaskConfig task = TestTasks.task(dir, "java/reattach",
                JavaFixture.fixture("Sleeps", ready.toString(), hook.toString()), Map.of());
        io.drover.driver.api.TaskHandle handle = await(driver.start(task));
        Await.until("the child JVM to register its hook", Duration.ofSeconds(20), () -> Files.exists(ready));
        assertThat(driver.capabilities().recover()).isTrue();
        JavaDriver second = JavaFixture.driver();
        try {
            assertThat(second.recover(handle)).isEqualTo(handle);
            assertThat(second.inspect(task.taskId()).state())
                    .isEqualTo(io.drover.driver.api.TaskStatus.State.RUNNING);

            second.signal(task.taskId(), "SIGTERM");

            assertThat(await(second.awaitExit(task.taskId()))).isEqualTo(ExitResult.code(143));
            assertThat(hook).hasContent("hook ran");
            second.destroy(task.taskId());
        } finally {
            second.close();
        }
        await(driver.awaitExit(task.taskId())); // the first driver is still the shim's parent: it reaps it
        driver.destroy(task.taskId());
    }

    @Test
    void aMissingClassExitsNonZeroWithTheJvmsMessageInTheStderrLog() throws Exception {
        Map<String, Object> config = new HashMap<>(JavaFixture.fixture("Sleeps"));
        config.put("class", "com.example.NoSuchMain");
        TaskConfig task = TestTasks.task(dir, "java/missing", config, Map.of());
        await(driver.start(task));

        ExitResult exit = await(driver.awaitExit(task.taskId()));

        assertThat(exit.exitCode()).isNotZero();
        assertThat(exit.signal()).isZero();
        assertThat(Files.readString(task.stderrPath()))
                .contains("Could not find or load main class com.example.NoSuchMain");
        driver.destroy(task.taskId());
    }

    @Test
    void aJavaHomeThatIsNoJdkFailsTheStartWithTheReason() throws Exception {
        Path notJdk = Files.createDirectory(dir.resolve("not-a-jdk"));
        for (Path home : List.of(notJdk, dir.resolve("missing"))) {
            Map<String, Object> config = new HashMap<>(JavaFixture.fixture("ExitWith", "0"));
            config.put("java_home", home.toString());
            TaskConfig task = TestTasks.task(dir, "java/home/" + home.getFileName(), config, Map.of());

            ExecutionException failure = startFailure(task);

            assertThat(failure.getCause()).isInstanceOf(DriverException.class)
                    .hasMessageContaining("java_home " + home + " is not a JDK or JRE");
            assertThat(((DriverException) failure.getCause()).recoverable()).isFalse();
        }
        assertThat(startFailure(TestTasks.task(dir, "java/home/missing", Map.of("class", "X",
                "java_home", dir.resolve("missing").toString()), Map.of())).getCause())
                .hasMessageEndingWith("no such directory");
        assertThat(startFailure(TestTasks.task(dir, "java/home/notjdk", Map.of("class", "X",
                "java_home", notJdk.toString()), Map.of())).getCause())
                .hasMessageEndingWith(notJdk.resolve("bin/java") + " is not an executable file");
    }

    @Test
    void anInvalidConfigFailsTheStartNamingEveryProblem() {
        TaskConfig task = TestTasks.task(dir, "java/invalid", Map.of("jar_path", "a.jar", "class", "A",
                "colour", "blue"), Map.of());

        assertThat(startFailure(task).getCause()).isInstanceOf(DriverException.class)
                .hasMessage("invalid java config: class: cannot be used with jar_path (the jar's manifest names its"
                        + " main class); colour: unknown key for the java driver (allowed: jar_path, class, class_path,"
                        + " jvm_options, args, java_home, user, pid_mode, ipc_mode)");
    }

    @Test
    void healthNamesTheJdkRunningDrover() {
        assertThat(driver.health().isHealthy()).isTrue();
        assertThat(driver.health().description())
                .contains(System.getProperty("java.runtime.version"))
                .contains(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    @Test
    void thePluginConfigCanTurnTheDriverOff() throws Exception {
        JavaDriver off = new JavaDriver();
        off.init(new DriverContext(Map.of("enabled", false), new WallTimers(), "0.1.0"));

        assertThat(off.health().isHealthy()).isFalse();
        assertThat(off.health().description()).contains("enabled = false");
        TaskConfig task = TestTasks.task(dir, "java/off", JavaFixture.fixture("ExitWith", "0"), Map.of());
        assertThat(startFailure(off, task).getCause()).hasMessageContaining("disabled");
        off.close();
    }

    @Test
    void aBadPluginConfigIsAConfigErrorNamingTheKey() {
        assertThatThrownBy(() -> new JavaDriver().init(new DriverContext(Map.of("enabled", "no"), new WallTimers(),
                "0.1.0"))).isInstanceOf(io.drover.driver.api.PluginConfigException.class)
                .hasMessage("enabled: must be true or false, found \"no\"");
        assertThatThrownBy(() -> new JavaDriver().init(new DriverContext(Map.of("jvm_options", "x"), new WallTimers(),
                "0.1.0"))).isInstanceOf(io.drover.driver.api.PluginConfigException.class)
                .hasMessage("jvm_options: unknown key (allowed: allow_root, default_ipc_mode, default_pid_mode, default_user, enabled)");
    }

    private static ExecutionException startFailure(TaskConfig task) {
        return startFailure(driver, task);
    }

    private static ExecutionException startFailure(JavaDriver d, TaskConfig task) {
        try {
            d.start(task).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("start succeeded");
    }
}
