package io.drover.core.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.driver.testdrivers.BlockingInitDriver;
import io.drover.core.driver.testdrivers.BlockingStartPlugin;
import io.drover.core.driver.testdrivers.ErrorStartPlugin;
import io.drover.core.driver.testdrivers.FakeDriver;
import io.drover.core.driver.testdrivers.HostileDriver;
import io.drover.core.driver.testdrivers.OtherDriver;
import io.drover.driver.tck.VirtualTimers;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 13 on the registry, with real plugin JARs: a plugin whose {@code Plugin.start()} or driver
 * {@code init} blocks is skipped after its limit with a line naming it (an Error thrown there too), the others
 * load; a {@code health()} that blocks answers "undetected" within the limit, 17 times over, naming the driver; a
 * blocking {@code validateConfig} is one problem naming the driver; an Error thrown by {@code start} fails the
 * start at once with that error and the driver's pool thread goes on.
 */
class BoundedPluginCallsTest {
    private static final PluginCallLimits SHORT = new PluginCallLimits(Duration.ofMillis(300),
            Duration.ofMillis(300), Duration.ofMillis(300), Duration.ofMillis(300));

    @TempDir
    Path dir;

    private final VirtualTimers timers = new VirtualTimers(Instant.parse("2024-01-01T00:00:00Z"));
    private DriverRegistry registry;

    @AfterEach
    void close() {
        if (registry != null) {
            registry.close();
        }
        // abandoned calls were interrupted (the plugins here end then): none is left behind
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(threads("drover-plugin-").isEmpty() && threads("drover-health-").isEmpty()
                && threads("drover-driver-hostile-check-").isEmpty())) {
            assertThat(System.nanoTime()).as("threads left in plugin calls: " + threads("drover-"))
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private DriverRegistry load(PluginCallLimits limits) {
        registry = DriverRegistry.load(dir, Map.of(), timers, limits);
        return registry;
    }

    @Test
    void blockingStartAndInitAreSkippedAfterTheirLimitNamingThePlugin() {
        TestDriverJar.plugin("slow-start").attribute("Plugin-Class", BlockingStartPlugin.class.getName())
                .extension(OtherDriver.class).writeTo(dir.resolve("a.jar"));
        TestDriverJar.plugin("slow-init").extension(BlockingInitDriver.class).writeTo(dir.resolve("b.jar"));
        TestDriverJar.plugin("error-start").attribute("Plugin-Class", ErrorStartPlugin.class.getName())
                .extension(OtherDriver.class).writeTo(dir.resolve("c.jar"));
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));

        long t0 = System.nanoTime();
        load(SHORT);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        assertThat(registry.problems()).containsExactly(
                dir.resolve("a.jar") + ": Plugin.start() of plugin \"slow-start\" did not return within 300ms: the "
                        + "agent starts without it; skipped",
                dir.resolve("b.jar") + ": init() of driver \"slow_init\" (plugin \"slow-init\") did not return "
                        + "within 300ms: the agent starts without it; skipped",
                dir.resolve("c.jar") + ": plugin \"error-start\" failed to start: AssertionError: plugin start "
                        + "broke an invariant; skipped");
        assertThat(registry.names()).containsExactly("fake");
        assertThat(ms).as("two limits and the loading itself, not a hang").isLessThan(10_000);
    }

    @Test
    void aBlockingHealthAnswersUndetectedWithinItsLimitEveryTime() throws Exception {
        TestDriverJar.plugin("hostile-plugin").extension(HostileDriver.class).writeTo(dir.resolve("h.jar"));
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));
        load(SHORT);

        List<CompletableFuture<List<DriverInfo>>> calls = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 17; i++) { // the attack's 17 concurrent GET /v1/plugins
            calls.add(CompletableFuture.supplyAsync(registry::drivers));
        }
        for (CompletableFuture<List<DriverInfo>> call : calls) {
            List<DriverInfo> infos = call.get(10, TimeUnit.SECONDS);
            assertThat(infos).extracting(DriverInfo::name).containsExactly("fake", "hostile");
            assertThat(infos.get(0).health().isHealthy()).isTrue();
            assertThat(infos.get(1).health().state()).isEqualTo(DriverHealth.State.UNDETECTED);
            assertThat(infos.get(1).health().description()).startsWith("health check of driver \"hostile\" "
                    + "(plugin \"hostile-plugin\") did not answer within 300ms");
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5_000);
        assertThat(threads("drover-health-hostile")).as("one health check in flight").hasSize(1);
        long t1 = System.nanoTime();
        assertThat(registry.drivers().get(1).health().state()).isEqualTo(DriverHealth.State.UNDETECTED);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1)).as("a silent one answers at once")
                .isLessThan(250);
    }

    @Test
    void aBlockingValidateConfigIsOneProblemNamingTheDriver() {
        TestDriverJar.plugin("hostile-plugin").extension(HostileDriver.class).writeTo(dir.resolve("h.jar"));
        load(SHORT);
        TaskDriver hostile = registry.driver("hostile").orElseThrow();

        for (int i = 0; i < 3; i++) { // more than the check pool's threads: the later ones time out in the queue
            assertThat(hostile.validateConfig(Map.of())).containsExactly(new ConfigProblem("",
                    "driver \"hostile\" did not check the config within 300ms (its validateConfig blocks)"));
        }
    }

    @Test
    void anErrorThrownByStartFailsTheStartAtOnceAndThePoolGoesOn() throws Exception {
        TestDriverJar.plugin("hostile-plugin").extension(HostileDriver.class).writeTo(dir.resolve("h.jar"));
        load(SHORT);
        TaskDriver hostile = registry.driver("hostile").orElseThrow();

        for (int i = 0; i < DriverRegistry.START_THREADS + 1; i++) {
            CompletableFuture<?> start = hostile.start(task("t" + i)).toCompletableFuture();
            try {
                start.get(5, TimeUnit.SECONDS);
                throw new AssertionError("started");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(DriverException.class)
                        .hasMessage("driver error: java.lang.StackOverflowError: hostile plugin: start recursed");
            }
        }
    }

    private static TaskConfig task(String id) {
        return new TaskConfig(id, "a", "j", "g", id, Map.of(), Map.of(), Path.of("/tmp"), Path.of("/tmp"),
                Path.of("/tmp/o"), Path.of("/tmp/e"), 1, 1 << 20);
    }

    private static List<String> threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith(prefix)).toList();
    }
}
