package io.drover.plugins.rawexec;

import io.drover.process.WallTimers;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.TaskConfig;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Launch benchmark (not a test): N sequential {@code /bin/true} through the raw_exec driver (start +
 * awaitExit) against a bare {@code ProcessBuilder} start + waitFor loop, in the same JVM, interleaved one by
 * one after a warm-up of both, output to files in both cases. Prints medians, p90 and the ratio. Reproduce
 * with {@code scripts/bench-launch.sh} (see docs/performance.md).
 */
public final class LaunchBenchmark {
    private LaunchBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path dir = Files.createTempDirectory("drover-bench");
        Path taskDir = Files.createDirectories(dir.resolve("task"));
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");

        org.slf4j.LoggerFactory.getLogger(LaunchBenchmark.class).debug("logging initialised before timing");
        long t0 = System.nanoTime();
        RawExecDriver driver = new RawExecDriver();
        driver.init(new DriverContext(Map.of("enabled", true), new WallTimers(), "0.1.0"));
        System.out.printf("raw_exec init (native binding, watcher thread): %.1f ms%n", (System.nanoTime() - t0) / 1e6);

        ProcessBuilder pb = new ProcessBuilder("/bin/true").directory(taskDir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()));
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin");
        long[] drv = new long[n];
        long[] bare = new long[n];
        for (int i = -warmup; i < n; i++) {
            TaskConfig task = new TaskConfig("bench/" + i, "a", "j", "g", "t",
                    Map.of("command", "/bin/true", "args", List.of()), env, taskDir, dir, out, err);
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
                drv[i] = b - a;
                bare[i] = d - c;
            }
        }
        driver.close();
        Arrays.sort(drv);
        Arrays.sort(bare);
        System.out.printf("%d sequential /bin/true after %d warm-up runs of each, interleaved%n", n, warmup);
        System.out.printf("raw_exec start+awaitExit : median %.3f ms, p90 %.3f ms%n", ms(drv, 50), ms(drv, 90));
        System.out.printf("ProcessBuilder start+wait: median %.3f ms, p90 %.3f ms%n", ms(bare, 50), ms(bare, 90));
        System.out.printf("raw_exec p99 %.3f ms, ProcessBuilder p99 %.3f ms%n", ms(drv, 99), ms(bare, 99));
        System.out.printf("ratio (raw_exec / ProcessBuilder, medians): %.2f%n", ms(drv, 50) / ms(bare, 50));
        for (File f : new File[] {out.toFile(), err.toFile()}) {
            f.delete();
        }
    }

    private static double ms(long[] sorted, int percentile) {
        int idx = Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, idx)] / 1e6;
    }
}
