package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobFileParserTest {

    /** The seed's job_spec.hcl, byte for byte: the sample every user runs, not a copy of it. */
    static byte[] seedJobSpec() {
        try {
            return java.nio.file.Files.readAllBytes(java.nio.file.Path.of(System.getProperty("basedir", "."))
                    .resolve("../../sample-jobs/poststop.hcl"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] resource(String name) {
        try (InputStream in = JobFileParserTest.class.getResourceAsStream("/jobs/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Job parse(String name, String text) throws JobFileException {
        return JobFileParser.parse(name, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theSeedJobSpecParsesWithNomadsDefaults() throws Exception {
        assertThat(new String(seedJobSpec(), StandardCharsets.UTF_8)).contains("  \n");
        Job job = JobFileParser.parse("job_spec.hcl", seedJobSpec());

        assertThat(job.id()).isEqualTo("example");
        assertThat(job.name()).isEqualTo("example");
        assertThat(job.type()).isEqualTo(JobType.BATCH);
        assertThat(job.datacenters()).containsExactly("dc1");
        assertThat(job.source()).isEqualTo("job_spec.hcl");
        TaskGroup group = job.groups().get(0);
        assertThat(group.name()).isEqualTo("test-group");
        assertThat(group.count()).isEqualTo(1);
        assertThat(group.restart()).isEqualTo(
                new RestartPolicy(3, Duration.ofHours(24), Duration.ofSeconds(15), RestartMode.FAIL));
        assertThat(group.maxRuntime()).isNull();
        assertThat(group.line()).isEqualTo(5);
        assertThat(group.tasks()).extracting(Task::name).containsExactly("test-task", "poststop");

        Task main = group.tasks().get(0);
        assertThat(main).isEqualTo(new Task("test-task", "raw_exec", Map.of("command", "echo", "args", List.of("foo")),
                Map.of(), false, null, Duration.ofSeconds(5), "SIGINT", Duration.ZERO, null, LogConfig.DEFAULT,
                RestartPolicy.BATCH_DEFAULT, 6));
        Task poststop = group.tasks().get(1);
        assertThat(poststop.lifecycle()).isEqualTo(new Lifecycle(LifecycleHook.POSTSTOP, false, null));
        assertThat(poststop.config()).containsEntry("args", List.of("bar"));
        assertThat(poststop.line()).isEqualTo(15);
    }

    @Test
    void theContractExampleParsesWithAllValues() throws Exception {
        Job job = JobFileParser.parse("example.hcl", resource("contract_example.hcl"));

        assertThat(job.type()).isEqualTo(JobType.BATCH);
        TaskGroup group = job.group("test-group").orElseThrow();
        assertThat(group.count()).isEqualTo(1);
        assertThat(group.restart()).isEqualTo(
                new RestartPolicy(3, Duration.ofHours(24), Duration.ofSeconds(15), RestartMode.FAIL));
        assertThat(group.maxRuntime()).isEqualTo(Duration.ofMinutes(10));

        Task task = group.task("test-task").orElseThrow();
        assertThat(task.driver()).isEqualTo("raw_exec");
        assertThat(task.leader()).isFalse();
        assertThat(task.killTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(task.killSignal()).isEqualTo("SIGINT");
        assertThat(task.shutdownDelay()).isZero();
        assertThat(task.maxRuntime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(task.env()).containsExactly(Map.entry("FOO", "bar"));
        assertThat(task.config()).containsExactly(Map.entry("command", "echo"),
                Map.entry("args", List.of("foo", "${NOMAD_TASK_NAME}")));
        assertThat(task.logs()).isEqualTo(new LogConfig(10, 10));
        assertThat(task.kind()).isEqualTo(io.drover.core.spec.TaskKind.MAIN);

        Task poststop = group.task("poststop").orElseThrow();
        assertThat(poststop.lifecycle()).isEqualTo(new Lifecycle(LifecycleHook.POSTSTOP, false, null));
        assertThat(poststop.maxRuntime()).as("the group's default").isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void serviceIsTheDefaultTypeAndTaskSettingsOverrideTheGroup() throws Exception {
        Job job = parse("j.hcl", """
                job "svc" {
                  name = "Service"
                  group "g" {
                    count = 0
                    restart { attempts = 7 }
                    task "main" {
                      driver = "mock"
                      leader = true
                      kill_signal = "term"
                      kill_timeout = "1m30s"
                      shutdown_delay = "250ms"
                      env = { PORT = 8080, DEBUG = true, RATIO = 1.5 }
                      restart {
                        mode = "delay"
                        delay = "1s"
                      }
                      logs { max_files = 3 }
                      resources {
                        cpu    = 100
                        memory = 256
                      }
                      meta { owner = "ops" }
                    }
                    task "side" {
                      driver = "mock"
                      lifecycle {
                        hook    = "prestart"
                        sidecar = true
                      }
                    }
                  }
                }
                """);
        assertThat(job.name()).isEqualTo("Service");
        assertThat(job.type()).isEqualTo(JobType.SERVICE);
        TaskGroup g = job.groups().get(0);
        assertThat(g.count()).isZero();
        assertThat(g.restart()).isEqualTo(new RestartPolicy(7, Duration.ofMinutes(30), Duration.ofSeconds(15),
                RestartMode.FAIL));
        Task main = g.tasks().get(0);
        assertThat(main.leader()).isTrue();
        assertThat(main.killSignal()).isEqualTo("SIGTERM");
        assertThat(main.killTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(main.shutdownDelay()).isEqualTo(Duration.ofMillis(250));
        assertThat(main.env()).containsExactly(Map.entry("PORT", "8080"), Map.entry("DEBUG", "true"),
                Map.entry("RATIO", "1.5"));
        assertThat(main.restart()).isEqualTo(new RestartPolicy(7, Duration.ofMinutes(30), Duration.ofSeconds(1),
                RestartMode.DELAY));
        assertThat(main.logs()).isEqualTo(new LogConfig(3, 10));
        assertThat(g.tasks().get(1).lifecycle()).isEqualTo(new Lifecycle(LifecycleHook.PRESTART, true, null));
    }

    @Test
    void configKeepsNestedValuesInOrderAndBlocksBecomeMaps() throws Exception {
        Job job = parse("j.hcl", """
                job "c" {
                  type = "batch"
                  group "g" {
                    task "t" {
                      driver = "java"
                      config {
                        z_first = 1
                        a_second = [1, 2.5, true, "${NOMAD_ALLOC_DIR}/x", { k = "v" }]
                        script = <<-EOF
                          echo $${HOME}
                          EOF
                        mount {
                          source = "a"
                        }
                        mount {
                          source = "b"
                        }
                        options = { "x.y" = "z" }
                      }
                    }
                  }
                }
                """);
        Map<String, Object> config = job.groups().get(0).tasks().get(0).config();
        assertThat(config.keySet()).containsExactly("z_first", "a_second", "script", "mount", "options");
        assertThat(config.get("a_second")).isEqualTo(List.of(1L, 2.5, true, "${NOMAD_ALLOC_DIR}/x", Map.of("k", "v")));
        assertThat(config.get("script")).isEqualTo("echo $${HOME}\n");
        assertThat(config.get("mount")).isEqualTo(List.of(Map.of("source", "a"), Map.of("source", "b")));
        assertThat(config.get("options")).isEqualTo(Map.of("x.y", "z"));
    }

    @Test
    void readsFilesFromDiskAndNamesThemInMessages(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.hcl");
        Files.write(file, seedJobSpec());
        assertThat(JobFileParser.parse(file).source()).isEqualTo(file.toString());

        Path missing = dir.resolve("missing.hcl");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JobFileParser.parse(missing))
                .isExactlyInstanceOf(JobFileException.class)
                .hasMessageStartingWith(missing + ": cannot read the file");
    }
}
