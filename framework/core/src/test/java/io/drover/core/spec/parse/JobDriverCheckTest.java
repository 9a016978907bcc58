package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Job;
import io.drover.driver.api.ConfigProblem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobDriverCheckTest {
    private static final String JOB = """
            job "j" {
              group "g" {
                task "ok" {
                  driver = "mock"
                  config {
                    run_for = "1s"
                  }
                }
                task "bad-config" {
                  driver = "mock"
                  config {
                    run_for = 5
                    exit_code = "zero"
                  }
                }
                task "unknown" {
                  driver = "docker"
                }
              }
            }
            """;

    private static final FakeDrivers DRIVERS = new FakeDrivers()
            .with("raw_exec", config -> List.of())
            .with("mock", config -> {
                if (config.get("run_for") instanceof String) {
                    return List.of();
                }
                return List.of(new ConfigProblem("run_for", "must be a duration like \"5s\""),
                        new ConfigProblem("exit_code", "must be an integer"));
            });

    @Test
    void reportsUnknownDriversAndEachConfigProblemWithTheTasksLine() throws Exception {
        Job job = JobFileParser.parse("j.hcl", JOB.getBytes(StandardCharsets.UTF_8));

        List<JobFileException> problems = JobDriverCheck.check(job, DRIVERS);

        assertThat(problems).extracting(JobFileException::getMessage).containsExactly(
                "j.hcl:9: job \"j\" > group \"g\" > task \"bad-config\" > config > run_for: must be a duration like \"5s\"",
                "j.hcl:9: job \"j\" > group \"g\" > task \"bad-config\" > config > exit_code: must be an integer",
                "j.hcl:16: job \"j\" > group \"g\" > task \"unknown\" > driver: unknown driver \"docker\" (loaded: mock, raw_exec)");
        assertThat(problems).extracting(JobFileException::line).containsExactly(9, 9, 16);
    }

    @Test
    void aDeclaredSchemaReportsEveryProblemOfTheBlockAndSkipsValidateConfig() throws Exception {
        Job job = JobFileParser.parse("j.hcl", JOB.replace("docker", "raw_exec").getBytes(StandardCharsets.UTF_8));
        io.drover.driver.api.schema.ConfigSchema schema = io.drover.driver.api.schema.ConfigSchema.of(
                io.drover.driver.api.schema.Attribute.duration("run_for"),
                io.drover.driver.api.schema.Attribute.integer("exit_code"));
        FakeDrivers drivers = new FakeDrivers().with("raw_exec", config -> List.of()).with("exec", config -> List.of())
                .withSchema("mock", schema, config -> List.of(new ConfigProblem("", "extra check ran")));

        assertThat(JobDriverCheck.check(job, drivers)).extracting(JobFileException::getMessage).containsExactly(
                "j.hcl:3: job \"j\" > group \"g\" > task \"ok\" > config: extra check ran",
                "j.hcl:9: job \"j\" > group \"g\" > task \"bad-config\" > config > exit_code: must be a whole number,"
                        + " found \"zero\"",
                "j.hcl:9: job \"j\" > group \"g\" > task \"bad-config\" > config > run_for: must be a duration like"
                        + " \"5s\" or \"1m30s\", not negative, found 5");
    }

    @Test
    void anUnknownDriverOfARefusedPluginDirSaysWhy() throws Exception {
        Job job = JobFileParser.parse("j.hcl", JOB.getBytes(StandardCharsets.UTF_8));
        io.drover.core.driver.DriverCatalog refused = io.drover.core.driver.DriverCatalog.refused(
                "plugin_dir /p is writable by others: refusing to load plugins from it");

        assertThat(JobDriverCheck.check(job, refused)).extracting(JobFileException::getMessage).contains(
                "j.hcl:16: job \"j\" > group \"g\" > task \"unknown\" > driver: unknown driver \"docker\" (loaded:"
                        + " none); the agent loaded no plugin: plugin_dir /p is writable by others: refusing to load"
                        + " plugins from it");
    }

    @Test
    void aValidJobHasNoProblems() throws Exception {
        Job job = JobFileParser.parse("j.hcl", JOB.replace("run_for = 5", "run_for = \"5s\"")
                .replace("docker", "raw_exec").getBytes(StandardCharsets.UTF_8));

        assertThat(JobDriverCheck.check(job, DRIVERS)).isEmpty();
    }

    @Test
    void aDriverThatThrowsWhileValidatingIsAProblemNotACrash() throws Exception {
        Job job = JobFileParser.parse("j.hcl", JOB.getBytes(StandardCharsets.UTF_8));
        FakeDrivers broken = new FakeDrivers().with("mock", config -> {
            throw new IllegalStateException("boom");
        });

        assertThat(JobDriverCheck.check(job, broken)).extracting(JobFileException::getMessage).contains(
                "j.hcl:3: job \"j\" > group \"g\" > task \"ok\" > config: driver mock failed to check the config: boom",
                "j.hcl:16: job \"j\" > group \"g\" > task \"unknown\" > driver: unknown driver \"docker\" (loaded: mock)");
    }

    /**
     * A task's user: a driver with a {@code user} option (as java's) gets it in its config and checks it (its line
     * at registration); a driver without one accepts only the agent's own user, else one line naming the key.
     */
    @Test
    void aTaskUserGoesToADriverThatTakesOneAndIsRefusedByOneThatCannot() throws Exception {
        String agent = System.getProperty("user.name");
        FakeDrivers drivers = new FakeDrivers().with("raw_exec", config -> List.of()).with("exec", config -> List.of())
                .withSchema("java", io.drover.driver.api.schema.ConfigSchema.of(
                        io.drover.driver.api.schema.Attribute.string("user")), config -> "bob".equals(config.get("user"))
                                ? List.of(new ConfigProblem("user", "no such user \"bob\" on this machine (/etc/passwd)"))
                                : List.of());
        Job job = JobFileParser.parse("u.hcl", """
                job "u" {
                  group "g" {
                    task "same" {
                      driver = "raw_exec"
                      user   = "%s"
                    }
                    task "other" {
                      driver = "raw_exec"
                      user   = "bob"
                    }
                    task "jvm" {
                      driver = "java"
                      user   = "bob"
                    }
                    task "isolated" {
                      driver = "exec"
                      user   = "nobody"
                    }
                    task "isolated-root" {
                      driver = "exec"
                      user   = "root"
                    }
                    task "jvm-own" {
                      driver = "java"
                      user   = "bob"
                      config { user = "nobody" }
                    }
                  }
                }
                """.formatted(agent).getBytes(StandardCharsets.UTF_8));

        assertThat(JobDriverCheck.check(job, drivers)).extracting(JobFileException::getMessage).containsExactly(
                "u.hcl:7: job \"u\" > group \"g\" > task \"other\" > user: the raw_exec driver runs its tasks as the "
                        + "agent's user (" + agent + ") and cannot run one as \"bob\"; the java driver can",
                "u.hcl:11: job \"u\" > group \"g\" > task \"jvm\" > config > user: no such user \"bob\" on this "
                        + "machine (/etc/passwd)",
                "u.hcl:19: job \"u\" > group \"g\" > task \"isolated-root\" > user: the exec driver runs its tasks as "
                        + "nobody and cannot run one as \"root\"; the java driver can");
        io.drover.core.spec.Task jvm = job.groups().get(0).task("jvm").orElseThrow();
        assertThat(TaskUserConfig.apply(jvm, jvm.config(), drivers.driver("java").orElseThrow().taskConfigSchema()))
                .containsEntry("user", "bob");
        assertThat(TaskUserConfig.apply(jvm, jvm.config(), java.util.Optional.empty())).doesNotContainKey("user");
    }
}
