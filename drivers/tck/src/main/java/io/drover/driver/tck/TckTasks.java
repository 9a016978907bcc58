package io.drover.driver.tck;

import io.drover.driver.api.TaskConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Task runs laid out as Drover's host lays them out: {@code root/<alloc>/<task>} as the task dir, the alloc's
 * shared {@code alloc} dir beside it, logs in {@code alloc/logs/<task>.stdout.0}. Pure but for creating the folders.
 */
public final class TckTasks {
    private TckTasks() {}

    /**
     * @param env the task's environment, given the task's name
     */
    public static TaskConfig task(Path root, String taskId, Map<String, Object> config,
            Function<String, Map<String, String>> env) {
        String name = "t" + Integer.toUnsignedString(taskId.hashCode());
        Path alloc = root.resolve("alloc1");
        Path taskDir = alloc.resolve(name);
        Path logs = alloc.resolve("alloc").resolve("logs");
        try {
            Files.createDirectories(taskDir);
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TaskConfig(taskId, "alloc1", "job", "group", name, config, new HashMap<>(env.apply(name)),
                taskDir, alloc.resolve("alloc"), logs.resolve(name + ".stdout.0"), logs.resolve(name + ".stderr.0"));
    }
}
