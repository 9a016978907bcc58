package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Starts, signals and kills many processes from several threads at once: every exit is reported, nothing leaks. */
@ExtendWith(ProcessLeakCheck.class)
class ConcurrentSupervisionTest {
    @TempDir
    Path dir;

    @Test
    void manyTasksStartedAndKilledFromSeveralThreads() throws Exception {
        int tasks = 120;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (ProcessSupervisor supervisor = ProcessSupervisor.create("stress")) {
            List<Future<SupervisedProcess>> started = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                String script = i % 3 == 0 ? "exit " + (i % 50) : "sleep 1000 & sleep 1000";
                started.add(pool.submit(() -> supervisor.spawn(new SpawnSpec("sh", List.of("-c", script),
                        ProcessLeakCheck.env(), dir, dir.resolve("out"), dir.resolve("err")))));
            }
            List<SupervisedProcess> procs = new ArrayList<>();
            for (Future<SupervisedProcess> f : started) {
                procs.add(f.get(30, TimeUnit.SECONDS));
            }
            List<Future<?>> kills = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                SupervisedProcess p = procs.get(i);
                kills.add(pool.submit(() -> {
                    p.signal(15);
                    p.signal(9);
                    return null;
                }));
            }
            for (Future<?> k : kills) {
                k.get(30, TimeUnit.SECONDS);
            }
            CompletableFuture.allOf(procs.stream().map(p -> p.onExit().toCompletableFuture())
                    .toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < tasks; i++) {
                ExitResult exit = procs.get(i).exitNow().orElseThrow();
                if (i % 3 != 0) {
                    assertThat(exit.signal()).isIn(9, 15);
                }
            }
            long reapers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("drover-stress-reaper")).count();
            assertThat(reapers).isEqualTo(1);
            for (SupervisedProcess p : procs) { // sweep what a TERM-then-exit left in a group
                p.killTree().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
