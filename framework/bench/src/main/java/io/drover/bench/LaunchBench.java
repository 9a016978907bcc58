package io.drover.bench;

import io.drover.core.driver.DriverRegistry;
import io.drover.core.time.RealTimers;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 3: sequential {@code /bin/true} tasks through the raw_exec plugin (start + awaitExit + destroy), loaded
 * from the plugin dir as the agent loads it, against a bare {@code ProcessBuilder} start + waitFor loop in the
 * same JVM, interleaved one by one after a warm-up of both, output to files in both cases. Ratio of medians:
 * required <= 1.3, aim < 1.0.
 */
final class LaunchBench implements Bench {
    /** Nomad's default {@code resources} (cpu 100, memory 300), what the agent hands a task that sets none. */
    private static final io.drover.driver.api.TaskResources AGENT_DEFAULT =
            new io.drover.driver.api.TaskResources(100, 300, 0);

    @Override
    public String name() {
        return "launch";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.size(100, 500);
        int warmup = env.size(50, 200);
        Path dir = env.freshDir("launch");
        Path taskDir = Files.createDirectories(dir.resolve("task"));
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        double[] drv = new double[n];
        double[] bare = new double[n];
        try (RealTimers timers = new RealTimers();
                DriverRegistry registry = DriverRegistry.load(env.pluginDir(),
                        Map.of("raw_exec", Map.of("enabled", true)), timers)) {
            TaskDriver driver = registry.driver("raw_exec").orElseThrow(() ->
                    new IllegalStateException("no raw_exec plugin in " + env.pluginDir()));
            ProcessBuilder pb = new ProcessBuilder("/bin/true").directory(taskDir.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                    .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()));
            Map<String, String> taskEnv = Map.of("PATH", "/usr/bin:/bin");
            for (int i = -warmup; i < n; i++) {
                TaskConfig task = new TaskConfig("bench/" + i, "bench", "j", "g", "t",
                        Map.of("command", "/bin/true", "args", List.of()), taskEnv, taskDir, dir, out, err)
                        .withResources(AGENT_DEFAULT); // as the agent's tasks: a cgroup per run unless off
                long a = System.nanoTime();
                driver.start(task).toCompletableFuture().get(10, TimeUnit.SECONDS);
                driver.awaitExit(task.taskId()).toCompletableFuture().get(10, TimeUnit.SECONDS);
                long b = System.nanoTime();
                driver.destroy(task.taskId());
                long c = System.nanoTime();
                Process p = pb.start();
                p.waitFor();
                long d = System.nanoTime();
                if (i >= 0) {
                    drv[i] = (b - a) / 1e6;
                    bare[i] = (d - c) / 1e6;
                }
            }
        }
        Percentiles d = Percentiles.of(drv);
        Percentiles b = Percentiles.of(bare);
        String baseline = "ProcessBuilder median " + Table.number(b.p(50)) + " ms";
        double ratio = d.p(50) / b.p(50);
        return List.of(
                Figure.info(name(), "raw_exec start+exit median (" + n + " x /bin/true)", d.p(50), "ms", baseline),
                Figure.info(name(), "raw_exec start+exit p90", d.p(90), "ms",
                        "ProcessBuilder p90 " + Table.number(b.p(90)) + " ms"),
                Figure.atMost(name(), "launch ratio raw_exec / ProcessBuilder (required)", ratio, "x", baseline, 1.3),
                Figure.atMost(name(), "launch ratio raw_exec / ProcessBuilder (aim)", ratio, "x", baseline, 0.99));
    }
}
