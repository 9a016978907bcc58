package io.drover.core.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.driver.testdrivers.FakeDriver;
import io.drover.driver.tck.VirtualTimers;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin's start runs on its driver's own bounded pool: a plugin that blocks the calling thread takes none of
 * the caller's (the engine's) threads and at most the pool's own; its other starts queue behind it.
 */
@Timeout(30) // a start on the caller's thread would block the test: it fails instead of hanging
class IsolatedDriverTest {
    @TempDir
    Path dir;

    /** A third party's synchronous start: "block" blocks its thread until released (or interrupted). */
    private static final class BlockingPlugin extends ForwardingTaskDriver {
        final CountDownLatch release = new CountDownLatch(1);
        final Semaphore blocked = new Semaphore(0);
        final List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile ClassLoader contextLoader;

        BlockingPlugin() {
            super(new FakeDriver());
        }

        @Override
        public CompletionStage<TaskHandle> start(TaskConfig config) {
            threads.add(Thread.currentThread().getName());
            contextLoader = Thread.currentThread().getContextClassLoader();
            switch (String.valueOf(config.config().get("mode"))) {
                case "block" -> {
                    blocked.release();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted");
                    }
                }
                case "throw" -> throw new IllegalStateException("boom");
                default -> { }
            }
            return CompletableFuture.completedFuture(new TaskHandle(config.taskId(), "fake", 0, Map.of()));
        }
    }

    private static TaskConfig task(String id, String mode) {
        return new TaskConfig(id, "a", "j", "g", id, Map.of("mode", mode), Map.of(), Path.of("/tmp"), Path.of("/tmp"),
                Path.of("/tmp/o"), Path.of("/tmp/e"), 1, 1 << 20);
    }

    @Test
    void blockedStartsHoldOnlyTheDriversOwnBoundedPool() throws Exception {
        BlockingPlugin plugin = new BlockingPlugin();
        ClassLoader loader = new ClassLoader(null) { };
        IsolatedDriver driver = new IsolatedDriver(plugin, "fake", loader, 2);
        try {
            List<CompletableFuture<TaskHandle>> blocked = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                // returns at once on the caller's thread, whatever the plugin does
                blocked.add(driver.start(task("b" + i, "block")).toCompletableFuture());
            }
            assertThat(plugin.blocked.tryAcquire(2, 10, TimeUnit.SECONDS)).as("two starts blocked").isTrue();
            CompletableFuture<TaskHandle> healthy = driver.start(task("h", "ok")).toCompletableFuture();

            assertThat(driver.threads()).as("bounded").isEqualTo(2);
            assertThat(plugin.threads).allMatch(t -> t.startsWith("drover-driver-fake-"));
            assertThat(plugin.contextLoader).isSameAs(loader);
            assertThat(blocked).noneMatch(CompletableFuture::isDone);
            assertThat(healthy).as("queued behind its own driver's blocked starts").isNotDone();

            plugin.release.countDown();
            assertThat(healthy.get(10, TimeUnit.SECONDS).taskId()).isEqualTo("h");
            for (CompletableFuture<TaskHandle> f : blocked) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            driver.close();
        }
    }

    @Test
    void aStartThatThrowsFailsItsStageWithADriverError() {
        IsolatedDriver driver = new IsolatedDriver(new BlockingPlugin(), "fake", getClass().getClassLoader(), 2);
        try {
            CompletableFuture<TaskHandle> f = driver.start(task("t", "throw")).toCompletableFuture();
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(DriverException.class)
                    .hasMessage("driver error: java.lang.IllegalStateException: boom");
        } finally {
            driver.close();
        }
    }

    @Test
    void closeInterruptsBlockedStartsAndRefusesNewOnes() throws Exception {
        BlockingPlugin plugin = new BlockingPlugin();
        IsolatedDriver driver = new IsolatedDriver(plugin, "fake", getClass().getClassLoader(), 2);
        CompletableFuture<TaskHandle> blocked = driver.start(task("b", "block")).toCompletableFuture();
        assertThat(plugin.blocked.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
        driver.close();

        assertThatThrownBy(() -> blocked.get(10, TimeUnit.SECONDS)).cause().hasMessageContaining("interrupted");
        assertThatThrownBy(() -> driver.start(task("late", "ok")).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .cause().isInstanceOf(DriverException.class).hasMessage("driver \"fake\" is shut down");
    }

    @Test
    void theRegistryHandsOutLoadedDriversIsolated() {
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));
        try (DriverRegistry registry = DriverRegistry.load(dir, Map.of(),
                new VirtualTimers(Instant.parse("2024-01-01T00:00:00Z")))) {
            assertThat(registry.driver("fake")).get().isInstanceOf(IsolatedDriver.class);
            assertThat(((IsolatedDriver) registry.driver("fake").orElseThrow()).plugin().getClass().getName())
                    .isEqualTo(FakeDriver.class.getName());
        }
    }
}
