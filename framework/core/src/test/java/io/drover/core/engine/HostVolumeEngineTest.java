package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.config.HostVolumeConfig;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskState;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.exec.ExecDriver;
import io.drover.plugins.rawexec.RawExecDriver;
import io.drover.process.ProcessLeakCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host volumes through the engine with real drivers: the exec driver bind-mounts a real host directory into its
 * chrooted task (read-write and read-only), the mount is visible only inside the task's mount namespace and gone
 * once the task ended; raw_exec, which mounts nothing, fails the task before it starts in Nomad's words, and so
 * does a host volume the node does not have. The exec part runs where exec is healthy (root, a mount namespace),
 * else it is skipped with exec's own health line.
 */
@ExtendWith(ProcessLeakCheck.class)
class HostVolumeEngineTest {
    @TempDir
    Path dir;

    private static String job(String driver, String config, String source) {
        return """
                job "vol" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    volume "data" {
                      type   = "host"
                      source = "%s"
                    }
                    volume "certs" {
                      type      = "host"
                      source    = "certs"
                      read_only = true
                    }
                    task "t" {
                      driver = "%s"
                      env {
                        %s
                      }
                      config {
                        %s
                      }
                      volume_mount {
                        volume      = "data"
                        destination = "/srv/data"
                      }
                      volume_mount {
                        volume      = "certs"
                        destination = "/local/certs"
                      }
                    }
                  }
                }
                """.formatted(source, driver, RawExecJobs.markerEnv(), config);
    }

    private Engine engine(EngineRuntime runtime, Map<String, HostVolumeConfig> volumes, TaskDriver... drivers) {
        DriverCatalog catalog = new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return Stream.of(drivers).filter(d -> d.name().equals(name)).findFirst();
            }

            @Override
            public Set<String> names() {
                return Set.of(Stream.of(drivers).map(TaskDriver::name).toArray(String[]::new));
            }
        };
        return new Engine(new EngineConfig(dir.resolve("data"), Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES,
                Duration.ofMinutes(1), null, volumes), catalog, runtime);
    }

    private Map<String, HostVolumeConfig> volumes(Path data, Path certs) {
        return Map.of("data", new HostVolumeConfig("data", data.toString(), false),
                "certs", new HostVolumeConfig("certs", certs.toString(), true));
    }

    private static AllocationState run(Engine engine, String hcl) throws Exception {
        AllocationState placed = engine.submit(RawExecJobs.parse(hcl)).get(0);
        return engine.terminal(placed.id()).get(60, TimeUnit.SECONDS);
    }

    private static TaskEvent event(AllocationState a, TaskEventType type) {
        TaskState t = a.taskStates().get("t");
        return t.events().stream().filter(e -> e.type() == type).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " in " + t.events()));
    }

    @Test
    void rawExecMountsNothingSoTheTaskFailsBeforeItStartsInNomadsWords() throws Exception {
        Path data = Files.createDirectory(dir.resolve("host-data"));
        Path certs = Files.createDirectory(dir.resolve("host-certs"));
        try (EngineRuntime runtime = EngineRuntime.real(2)) {
            RawExecDriver rawExec = RawExecAgent.driver(runtime);
            try (Engine engine = engine(runtime, volumes(data, certs), rawExec)) {
                AllocationState done = run(engine, job("raw_exec",
                        "command = \"sh\"\n args = [\"-c\", \"touch " + data + "/ran\"]", "data"));
                assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
                assertThat(event(done, TaskEventType.TASK_HOOK_FAILED).displayMessage())
                        .isEqualTo("volumes: task driver \"raw_exec\" for \"t\" does not support host volumes");
                assertThat(done.taskStates().get("t").events()).extracting(TaskEvent::type)
                        .doesNotContain(TaskEventType.STARTED);
                assertThat(data.resolve("ran")).as("nothing ran").doesNotExist();

                AllocationState missing = run(engine, job("raw_exec", "command = \"true\"", "elsewhere"));
                assertThat(missing.clientStatus()).isEqualTo(ClientStatus.FAILED);
                assertThat(event(missing, TaskEventType.TASK_HOOK_FAILED).displayMessage())
                        .isEqualTo("volumes: host volume validation error: missing elsewhere");
            }
        }
    }

    @Test
    void execBindMountsTheHostDirectoryInsideTheTaskOnlyAndTheMountIsGoneAfter() throws Exception {
        Path data = Files.createDirectory(dir.resolve("host-data"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx")); // the task runs as nobody
        Files.writeString(data.resolve("in.txt"), "from the host\n");
        Path certs = Files.createDirectory(dir.resolve("host-certs"));
        Files.setPosixFilePermissions(certs, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.writeString(certs.resolve("ca.pem"), "CA\n");
        try (EngineRuntime runtime = EngineRuntime.real(2)) {
            ExecDriver exec = new ExecDriver();
            exec.init(new DriverContext(Map.of(), runtime.timers(), "test"));
            DriverHealth health = exec.health();
            Assumptions.assumeTrue(health.isHealthy(), "exec is not usable here: " + health.description());
            try (Engine engine = engine(runtime, volumes(data, certs), exec)) {
                String script = "cat /srv/data/in.txt > /srv/data/out.txt"
                        + " && cat /local/certs/ca.pem"
                        + " && (echo x > /local/certs/x 2>/dev/null && echo certs-writable || echo certs-read-only)"
                        + " && grep -c ' /srv/data ' /proc/self/mountinfo";
                AllocationState done = run(engine, job("exec",
                        "command = \"/bin/sh\"\n args = [\"-c\", \"" + script + "\"]", "data"));
                Path taskDir = AllocDirs.of(dir.resolve("data"), done.id()).task("t");
                String out = Files.readString(AllocDirs.of(dir.resolve("data"), done.id()).log("t", "stdout"));
                assertThat(done.clientStatus()).as(out + done.taskStates()).isEqualTo(ClientStatus.COMPLETE);
                assertThat(out).isEqualTo("CA\ncerts-read-only\n1\n");
                assertThat(data.resolve("out.txt")).as("written through the mount").hasContent("from the host");
                assertThat(certs.resolve("x")).doesNotExist();

                // the host saw no mount, and the task's namespace ended with it: the mount points are empty dirs
                assertThat(mountsUnder(Path.of("/proc/self/mountinfo"), taskDir)).isEmpty();
                RawExecJobs.await(() -> namespacesWithMountsUnder(taskDir).isEmpty(), "the task's namespace ended");
                try (Stream<Path> left = Files.list(taskDir.resolve("srv/data"))) {
                    assertThat(left).as("nothing mounted at the mount point any more").isEmpty();
                }
                assertThat(data.resolve("in.txt")).as("the host directory is intact").exists();
            }
        }
    }

    @Test
    void aLinkPlantedAtTheDestinationIsRefusedAndNothingIsMounted() throws Exception {
        Path data = Files.createDirectory(dir.resolve("host-data"));
        Path certs = Files.createDirectory(dir.resolve("host-certs"));
        try (EngineRuntime runtime = EngineRuntime.real(2)) {
            ExecDriver exec = new ExecDriver();
            exec.init(new DriverContext(Map.of(), runtime.timers(), "test"));
            Assumptions.assumeTrue(exec.health().isHealthy(), "exec is not usable here: " + exec.health().description());
            try (Engine engine = engine(runtime, volumes(data, certs), exec)) {
                // the first run swaps the directory above its mount point for a link to /etc (a task may rename
                // what is in its own local/); it then fails, so the restart makes the mounts again: the link must
                // be refused, never followed
                String hcl = job("exec", "command = \"/bin/sh\"\n args = [\"-c\", \"mv /local/a /local/old"
                        + " && ln -s /etc /local/a; exit 3\"]", "data")
                        .replace("destination = \"/local/certs\"", "destination = \"/local/a/certs\"")
                        .replace("attempts = 0", "attempts = 1\n delay = \"0s\"");
                AllocationState done = run(engine, hcl);
                assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
                TaskEvent failure = event(done, TaskEventType.DRIVER_FAILURE);
                assertThat(failure.displayMessage()).contains("volume_mount destination \"/local/a/certs\"")
                        .contains("is a symbolic link; refusing to mount through it").doesNotContain("\n");
                Path taskDir = AllocDirs.of(dir.resolve("data"), done.id()).task("t");
                assertThat(Files.isSymbolicLink(taskDir.resolve("local/a"))).as("the first run planted it").isTrue();
                assertThat(mountsUnder(Path.of("/proc/self/mountinfo"), taskDir)).isEmpty();
            }
        }
    }

    /** Mount points in {@code mountinfo} (field 5) under {@code root}. */
    static List<String> mountsUnder(Path mountinfo, Path root) {
        String prefix = root.toAbsolutePath().normalize().toString();
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(mountinfo)) {
                String[] f = line.split(" ");
                if (f.length > 4 && (f[4].equals(prefix) || f[4].startsWith(prefix + "/"))) {
                    out.add(f[4]);
                }
            }
        } catch (IOException e) {
            // the process ended while we read
        }
        return out;
    }

    /** The processes whose mount namespace has a mount under {@code root}. */
    static List<String> namespacesWithMountsUnder(Path root) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> !mountsUnder(p.resolve("mountinfo"), root).isEmpty())
                    .forEach(p -> out.add(p.getFileName().toString()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }
}
