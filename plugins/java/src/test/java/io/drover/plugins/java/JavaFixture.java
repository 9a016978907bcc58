package io.drover.plugins.java;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A java driver as the agent makes it, and configs that run the test fixtures in a fast-starting child JVM. */
final class JavaFixture {
    /** Small, quick child JVMs: no C2, shared archive when present, small heap and stacks. */
    static final List<String> FAST_JVM = List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xss256k", "-Xmx32m",
            "-XX:+UseSerialGC", "-XX:-UsePerfData");
    /** The test classes (io.drover.plugins.java.fixtures), as an absolute class path entry. */
    static final String TEST_CLASSES = Path.of("target", "test-classes").toAbsolutePath().toString();

    private JavaFixture() {}

    static JavaDriver driver() throws DriverException {
        JavaDriver driver = new JavaDriver();
        driver.init(new DriverContext(Map.of(), new io.drover.process.WallTimers(), "0.1.0"));
        return driver;
    }

    /**
     * {@code dir/shared}, where a child JVM running as the task user (nobody, when the tests run as root) may write:
     * {@code dir} (a JUnit temp dir, {@code rwx------}) opened to {@code rwxr-xr-x}, the new directory to all.
     */
    static Path writableByTasks(Path dir) throws java.io.IOException {
        java.nio.file.Files.setPosixFilePermissions(dir,
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path shared = java.nio.file.Files.createDirectories(dir.resolve("shared"));
        java.nio.file.Files.setPosixFilePermissions(shared,
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        return shared;
    }

    /** Runs {@code io.drover.plugins.java.fixtures.<fixture>} with these arguments. */
    static Map<String, Object> fixture(String fixture, String... args) {
        return Map.of("class", "io.drover.plugins.java.fixtures." + fixture, "class_path", List.of(TEST_CLASSES),
                "jvm_options", FAST_JVM, "args", new ArrayList<>(List.of(args)));
    }

    /**
     * Starts the task, waits for its exit (20 s at most each), which must be 0 (a failure shows the task's
     * stderr), then destroys it. On the test's thread; blocks.
     */
    static void runToSuccess(JavaDriver d, io.drover.driver.api.TaskConfig task) throws Exception {
        d.start(task).toCompletableFuture().get(20, java.util.concurrent.TimeUnit.SECONDS);
        try {
            org.assertj.core.api.Assertions.assertThat(
                    d.awaitExit(task.taskId()).toCompletableFuture().get(20, java.util.concurrent.TimeUnit.SECONDS))
                    .as(() -> textForMessage(task.stderrPath())).isEqualTo(io.drover.driver.api.ExitResult.code(0));
        } finally {
            d.destroy(task.taskId());
        }
    }

    /** A file's text for a failure message: "" when it does not exist, the error's text when it cannot be read. */
    static String textForMessage(Path p) {
        try {
            return java.nio.file.Files.exists(p) ? java.nio.file.Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
