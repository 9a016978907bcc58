package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs after packaging: the launcher's first {@code drover run} after a build (no AppCDS archive yet). The
 * launcher must record the archive and still {@code exec} the run, so that its pid is the run's JVM: a SIGTERM
 * sent to that pid reaches the run, which stops its job, prints the status and exits 128 + 15, leaving no
 * process behind. (Before, that one run was a child of the launcher's shell; the SIGTERM killed the shell and
 * left the run and its tasks going.)
 *
 * <p>The launcher runs from a copy of the repository root in a temp dir (the script, the built jar and
 * classpath, the plugins and the sample jobs linked), so its archive is the test's own and the repository's
 * archive is never touched.
 */
class LauncherSignalIT {
    private static final String JOB = """
            job "held" {
              type = "batch"
              group "g" {
                task "main" {
                  driver = "raw_exec"
                  config {
                    command = "sleep"
                    args    = ["300"]
                  }
                }
              }
            }
            """;

    @TempDir
    Path dir;
    private Process run;

    @AfterEach
    void noProcessLeft() throws Exception {
        if (run != null && run.isAlive()) {
            run.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
        List<String> left = NoProcessLeft.under(dir);
        LauncherCopy.unlink(dir);
        left.forEach(p -> ProcessHandle.of(Long.parseLong(p.split(" ")[0])).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(left).as("processes left running").isEmpty();
    }

    @Test
    void theFirstRunAfterABuildRecordsTheArchiveAndTakesSigtermItself() throws Exception {
        Path root = launcherCopy();
        Path jsa = root.resolve("framework/cli/target/drover-cli.jsa");
        run = launch(root, false);

        Poll.until("the main task runs", Duration.ofSeconds(60), this::stderr,
                s -> s.contains("main:running") || !run.isAlive());
        assertThat(run.isAlive()).as("drover run still running; stderr:%n%s", stderr()).isTrue();
        assertThat(jsa).as("the archive recorded before the run").isNotEmptyFile();
        assertThat(ProcessHandle.of(run.pid()).flatMap(h -> h.info().command()).orElse(""))
                .as("the launcher's pid is the run's JVM (exec'd), not a shell").endsWith("/java");

        run.destroy(); // SIGTERM to the launcher's pid
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("drover run ended; stderr:%n%s", stderr()).isTrue();
        assertThat(run.exitValue()).as("exit code 128 + SIGTERM; stderr:%n%s", stderr()).isEqualTo(143);
        assertThat(stderr()).contains("==> Caught interrupt: stopping allocations");
        JsonNode alloc = new ObjectMapper().readTree(dir.resolve("out.json").toFile()).get(0);
        Allocs.assertAllDead(alloc);
        assertThat(Allocs.types(alloc.path("TaskStates").path("main")))
                .containsSubsequence("Started", "Killing", "Terminated", "Killed");
    }

    /**
     * Ctrl-C (SIGINT to the launcher's process group, as a terminal sends it) while the launcher records the archive:
     * the launcher ends with 130 at once instead of going on to the user's command. Whether the signal lands in the
     * training run or, on a slow machine, just after it in the exec'd run, the exit is 130, soon, with nothing left
     * running and no temporary archive left behind. (Before, the training JVM sat in a process group of its own:
     * the launcher then ran the job, whose task sleeps 300 s.)
     */
    @Test
    void ctrlCDuringTheTrainingRunEndsTheLauncher() throws Exception {
        // a terminal's foreground job never ignores SIGINT; under an inherited ignore there is no Ctrl-C to test
        org.junit.jupiter.api.Assumptions.assumeFalse(InheritedSignals.sigintIgnored(),
                "this JVM ignores SIGINT (started in the background of a non-interactive shell), as the launcher would");
        Path root = launcherCopy();
        run = launch(root, true);
        Poll.until("the training run has started", Duration.ofSeconds(60), () -> training(run.pid()),
                t -> t || !run.isAlive());
        assertThat(run.isAlive()).as("launcher still running; stderr:%n%s", stderr()).isTrue();

        Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + run.pid()).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
        assertThat(run.waitFor(30, TimeUnit.SECONDS)).as("launcher ended after Ctrl-C; stderr:%n%s", stderr())
                .isTrue();
        assertThat(run.exitValue()).as("exit code 128 + SIGINT; stderr:%n%s", stderr()).isEqualTo(130);
        try (var files = Files.list(root.resolve("framework/cli/target"))) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no temporary archive left")
                    .noneMatch(n -> n.endsWith(".tmp") || n.endsWith(".classlist"));
        }
    }

    /**
     * Starts {@code drover run -json JOB} through the launcher in {@code root} (DROVER_BUILD=0, the archive on),
     * its cwd and java.io.tmpdir under the temp dir, so a leaked JVM or task is found; {@code ownGroup}: in a
     * process group of its own ({@code setsid}), so that the test can signal the group as a terminal would.
     */
    private Process launch(Path root, boolean ownGroup) throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        Path job = Files.writeString(dir.resolve("held.hcl"), JOB);
        List<String> command = new java.util.ArrayList<>();
        if (ownGroup) {
            command.add("setsid");
        }
        command.addAll(List.of(root.resolve("drover").toString(), "run", "-json", job.toString()));
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(cwd.toFile())
                .redirectOutput(dir.resolve("out.json").toFile())
                .redirectError(dir.resolve("err.txt").toFile());
        pb.environment().put("DROVER_BUILD", "0");
        pb.environment().remove("DROVER_CDS");
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp);
        return pb.start();
    }

    /** Whether a descendant of {@code pid} is a JVM that records the archive (the training run or the dump). */
    private static boolean training(long pid) {
        return ProcessHandle.of(pid).stream().flatMap(ProcessHandle::descendants).anyMatch(d -> {
            try {
                String cmdline = Files.readString(Path.of("/proc", Long.toString(d.pid()), "cmdline"));
                return cmdline.contains("-XX:DumpLoadedClassList=") || cmdline.contains("-Xshare:dump");
            } catch (IOException e) {
                return false; // it has ended
            }
        });
    }

    private Path launcherCopy() throws IOException {
        return LauncherCopy.in(dir);
    }

    private String stderr() throws IOException {
        Path err = dir.resolve("err.txt");
        return Files.exists(err) ? Files.readString(err) : "";
    }
}
