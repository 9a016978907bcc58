package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 11, below the cap on tasks per job: {@code drover run} (a child JVM, as the launcher runs it) with one
 * group of 2,000 mock tasks. Its live status must stay bounded (old code: the 22 KB task list reprinted on every
 * change, over 100 MB of stderr), a SIGTERM must end it promptly with its temp dir deleted; and a run killed with
 * SIGKILL, which cannot clean up, leaves its dir and its tasks to the next run, which reclaims both.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class HugeRunEndToEndTest {
    private static final int TASKS = 2_000;

    @TempDir
    Path dir;
    private Path tmp;
    private Path config;
    private Process run;

    @BeforeEach
    void files() throws Exception {
        tmp = Files.createDirectories(dir.resolve("tmp"));
        String plugins = System.getProperty("drover.test.plugins");
        assertThat(plugins).as("system property drover.test.plugins (run 'mvn verify')").isNotNull();
        config = Files.writeString(dir.resolve("agent.hcl"), "plugin_dir = \"" + plugins + "\"\n"
                + "client { max_tasks_per_group = " + TASKS + " }\n"); // over the default 1,000, on purpose
    }

    @AfterEach
    void noProcessLeft() throws Exception {
        if (run != null && run.isAlive()) {
            run.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
        List<String> left = NoProcessLeft.under(tmp);
        left.forEach(p -> ProcessHandle.of(Long.parseLong(p.split(" ")[0])).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(left).as("processes of the jobs left running").isEmpty();
    }

    @Test
    void sigtermEndsAHugeGroupPromptlyWithBoundedOutputAndTheTempDirDeleted() throws Exception {
        StringBuilder hcl = new StringBuilder("job \"big\" {\n  type = \"batch\"\n  group \"g\" {\n");
        for (int i = 0; i < TASKS; i++) {
            hcl.append("    task \"t").append(i).append("\" {\n      driver = \"mock\"\n      config {\n")
                    .append("        run_for = \"1h\"\n      }\n    }\n");
        }
        Path job = Files.writeString(dir.resolve("big.hcl"), hcl.append("  }\n}\n"));
        run = start(job, "err.txt");
        awaitStderr("err.txt", TASKS + " tasks: " + TASKS + " running", "every task runs");

        long signalled = System.nanoTime();
        run.destroy(); // SIGTERM
        boolean ended = run.waitFor(60, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - signalled) / 1e9;

        assertThat(ended).as("drover run ended after SIGTERM; stderr:%n%s", tail("err.txt")).isTrue();
        assertThat(run.exitValue()).isEqualTo(143);
        assertThat(seconds).as("seconds from SIGTERM to exit").isLessThan(15);
        long bytes = Files.size(dir.resolve("err.txt"));
        assertThat(bytes).as("stderr bytes of a %d-task run", TASKS).isLessThan(64 * 1024);
        assertThat(Files.readString(dir.resolve("err.txt")))
                .contains("big.g[0]", "complete  " + TASKS + " tasks: " + TASKS + " dead");
        assertThat(Files.size(dir.resolve("out.txt"))).as("the status is printed").isPositive();
        Poll.until("the temp dir deleted", Duration.ofSeconds(60), this::runDirs, List::isEmpty);
    }

    @Test
    void aRunKilledWithSigkillLeavesItsDirAndTasksToTheNextRunWhichReclaimsBoth() throws Exception {
        Path stuck = Files.writeString(dir.resolve("stuck.hcl"), """
                job "stuck" {
                  type = "batch"
                  group "g" {
                    task "sleeper" {
                      driver = "raw_exec"
                      config {
                        command = "sleep"
                        args    = ["300"]
                      }
                    }
                  }
                }
                """);
        run = start(stuck, "first.txt");
        awaitStderr("first.txt", "sleeper:running", "the raw_exec task runs");
        run.destroyForcibly(); // SIGKILL: no chance to clean up
        assertThat(run.waitFor(20, TimeUnit.SECONDS)).isTrue();
        List<String> stale = runDirs();
        assertThat(stale).as("the killed run's dir is left").hasSize(1);
        assertThat(NoProcessLeft.under(tmp)).as("its task outlives it").isNotEmpty();

        Path next = Files.writeString(dir.resolve("next.hcl"), """
                job "next" {
                  type = "batch"
                  group "g" {
                    task "t" {
                      driver = "mock"
                      config {
                        run_for = "3s"
                      }
                    }
                  }
                }
                """);
        run = start(next, "second.txt");
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the next run ends").isTrue();
        assertThat(run.exitValue()).as(Files.readString(dir.resolve("second.txt"))).isZero();

        Poll.until("the killed run's dir reclaimed", Duration.ofSeconds(60), this::runDirs,
                dirs -> dirs.stream().noneMatch(d -> d.startsWith(stale.get(0))));
        assertThat(NoProcessLeft.under(tmp)).as("the killed run's task was killed by the next run").isEmpty();
    }

    private Process start(Path job, String stderr) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + tmp,
                "-cp", System.getProperty("java.class.path"), "io.drover.cli.Main", "run", "-config",
                config.toString(), job.toString())
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve(stderr).toFile())
                .start();
    }

    private List<String> runDirs() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("drover-run-")).toList();
        }
    }

    private String tail(String file) throws IOException {
        Path p = dir.resolve(file);
        String s = Files.exists(p) ? Files.readString(p) : "";
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }

    private void awaitStderr(String file, String fragment, String what) throws Exception {
        Poll.until(what, Duration.ofSeconds(90), () -> tail(file), s -> s.contains(fragment) || !run.isAlive());
        assertThat(run.isAlive()).as("drover run still running when " + what + "; stderr:%n%s", tail(file)).isTrue();
    }
}
