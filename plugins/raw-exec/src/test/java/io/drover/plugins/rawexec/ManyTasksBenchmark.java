package io.drover.plugins.rawexec;

import io.drover.process.WallTimers;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.TaskConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark (not a test): N concurrent {@code sleep 1000} tasks through raw_exec, then all SIGKILLed. Prints the
 * agent's RSS and thread count with the tasks running, and how long starting and stopping took. Reproduce with
 * {@code scripts/bench-many.sh} (docs/performance.md).
 */
public final class ManyTasksBenchmark {
    private ManyTasksBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Path dir = Files.createTempDirectory("drover-many");
        RawExecDriver driver = new RawExecDriver();
        driver.init(new DriverContext(Map.of("enabled", true), new WallTimers(), "0.1.0"));
        System.out.printf("before: RSS %d MiB, %d threads%n", rssMiB(), Thread.activeCount());

        List<String> ids = new ArrayList<>();
        long t0 = System.nanoTime();
        long inStart = 0;
        for (int i = 0; i < n; i++) {
            // one allocation per task, as in an agent: its own task dir and alloc/logs
            Path taskDir = Files.createDirectories(dir.resolve("a" + i).resolve("t" + i));
            Path logs = Files.createDirectories(dir.resolve("a" + i).resolve("alloc").resolve("logs"));
            TaskConfig task = new TaskConfig("many/" + i, "a", "j", "g", "t" + i,
                    Map.of("command", System.getProperty("cmd", "sleep"), "args", List.of("1000")), Map.of("PATH", "/usr/bin:/bin"), taskDir,
                    dir, logs.resolve("t" + i + ".stdout.0"), logs.resolve("t" + i + ".stderr.0"));
            long s0 = System.nanoTime();
            driver.start(task).toCompletableFuture().get(10, TimeUnit.SECONDS);
            inStart += System.nanoTime() - s0;
            ids.add(task.taskId());
            if ((i + 1) % (n / 5) == 0) {
                System.out.printf("  %d started after %.0f ms, %.0f ms of it in start()%n", i + 1,
                        (System.nanoTime() - t0) / 1e6, inStart / 1e6);
            }
        }
        long started = System.nanoTime();
        System.gc();
        System.out.printf("%d sleep tasks running: started in %.0f ms; RSS %d MiB, %d JVM threads (%s)%n", n,
                (started - t0) / 1e6, rssMiB(), Thread.activeCount(), threadNames());

        List<CompletableFuture<?>> exits = new ArrayList<>();
        for (String id : ids) {
            driver.signal(id, "SIGKILL");
            exits.add(driver.awaitExit(id).toCompletableFuture());
        }
        CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        long stopped = System.nanoTime();
        System.out.printf("all %d SIGKILLed (tree kill incl. /proc scan and verification) and reaped in %.0f ms%n",
                n, (stopped - started) / 1e6);
        ids.forEach(driver::destroy);
        driver.close();
    }

    private static String threadNames() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("drover-")).sorted().toList().toString();
    }

    private static long rssMiB() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        return -1;
    }
}
