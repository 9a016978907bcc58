package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A {@code task} directly in a {@code job}, as Nomad's jobspec2 reads it: a group of its own, named after it. */
class LoneTaskTest {

    private static Job parse(String hcl) throws Exception {
        return JobFileParser.parse("a.hcl", hcl.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aTaskInTheJobIsAGroupOfItsOwnPlacedBeforeTheGroups() throws Exception {
        Job job = parse("""
                job "j" {
                  type = "batch"
                  group "g" {
                    task "inner" {
                      driver = "mock"
                    }
                  }
                  task "alone" {
                    driver = "mock"
                    config {
                      run_for = "1s"
                    }
                  }
                }
                """);
        assertThat(job.groups()).extracting(TaskGroup::name).containsExactly("alone", "g");
        TaskGroup alone = job.groups().get(0);
        assertThat(alone.count()).isEqualTo(1);
        assertThat(alone.line()).isEqualTo(8);
        assertThat(alone.tasks()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("alone");
            assertThat(t.config()).containsEntry("run_for", "1s");
        });
        assertThat(alone.restart()).isEqualTo(job.groups().get(1).restart()); // the job type's default, as a group's
    }

    @Test
    void aJobOfLoneTasksOnlyIsValid() throws Exception {
        Job job = parse("""
                job "j" {
                  task "a" {
                    driver = "mock"
                  }
                  task "b" {
                    driver = "mock"
                  }
                }
                """);
        assertThat(job.groups()).extracting(TaskGroup::name).containsExactly("a", "b");
    }

    @Test
    void everyProblemOfLoneTasksIsOneLineNamingIt() {
        Throwable t = catchThrowable(() -> parse("""
                job "j" {
                  task "a" {
                    lifecycle {
                      hook = "prestart"
                    }
                    driver = "mock"
                  }
                  task "b" {
                    colour = "red"
                    driver = "mock"
                  }
                  task "c" {
                    driver = "mock"
                  }
                  group "c" {
                    task "x" {
                      driver = "mock"
                    }
                  }
                }
                """));
        assertThat(t).isInstanceOf(JobFileException.class);
        assertThat(((JobFileException) t).problems()).extracting(Throwable::getMessage).containsExactly(
                "a.hcl:2: job \"j\" > task \"a\": a task directly in the job is its group's only task, so it must be"
                        + " a main task (no lifecycle)",
                "a.hcl:9: job \"j\" > task \"b\" > colour: unknown key (allowed: driver, config, env, leader, lifecycle,"
                        + " kill_timeout, kill_signal, shutdown_delay, max_runtime, logs, restart, meta, resources, user,"
                        + " dispatch_payload, vault, consul, csi_plugin, artifact, template, identity, service, volume_mount,"
                        + " constraint, affinity, spread)",
                "a.hcl:15: job \"j\" > group \"c\": duplicate group name (first at line 12)");
    }
}
