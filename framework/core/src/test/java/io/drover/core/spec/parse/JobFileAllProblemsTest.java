package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job file with several problems is refused with all of them, in file order, each with its line and key. */
class JobFileAllProblemsTest {
    private static List<JobFileException> problems(String file, String content) {
        Throwable thrown = catchThrowable(() -> JobFileParser.parse(file, content.getBytes(StandardCharsets.UTF_8)));
        assertThat(thrown).isInstanceOf(JobFileException.class);
        JobFileException e = (JobFileException) thrown;
        List<JobFileException> all = e.problems();
        assertThat(e.getMessage()).as("old callers read the first problem").isEqualTo(all.get(0).getMessage());
        all.forEach(p -> assertThat(p.getMessage()).doesNotContain("\n").startsWith(file + ":"));
        return all;
    }

    private static List<String> messages(List<JobFileException> problems) {
        return problems.stream().map(JobFileException::getMessage).toList();
    }

    @Test
    void twoBadTaskNamesInTwoGroupsAreBothReported() {
        List<JobFileException> all = problems("a.hcl", """
                job "j" {
                  group "g1" {
                    task "../x" {
                      driver = "mock"
                    }
                  }
                  group "g2" {
                    task "/tmp/y" {
                      driver = "mock"
                    }
                  }
                }
                """);
        assertThat(all).hasSize(2);
        assertThat(all).extracting(JobFileException::line).containsExactly(3, 8);
        assertThat(all.get(0).key()).isEqualTo("job \"j\" > group \"g1\" > task \"../x\"");
        assertThat(all.get(1).key()).isEqualTo("job \"j\" > group \"g2\" > task \"/tmp/y\"");
        assertThat(all).allSatisfy(p -> assertThat(p.problem()).startsWith("the task name "));
    }

    @Test
    void unknownKeysAndABadDurationInOneTaskAndAProblemInAnotherTaskAreAllReported() {
        List<JobFileException> all = problems("a.hcl", """
                job "j" {
                  typo = 1
                  group "g" {
                    count = "two"
                    task "a" {
                      driver = "mock"
                      colour = "red"
                      kill_timeout = "5sec"
                      flavour = "x"
                    }
                    task "b" {
                      driver = "mock"
                      kill_signal = "SIGNOPE"
                    }
                  }
                }
                """);
        assertThat(messages(all)).containsExactly(
                "a.hcl:2: job \"j\" > typo: unknown key (allowed: name, type, datacenters, region, namespace, priority,"
                        + " meta, all_at_once, periodic, parameterized, update, reschedule, migrate, node_pool, vault, consul,"
                        + " group, task, constraint, affinity, spread)",
                "a.hcl:4: job \"j\" > group \"g\" > count: must be a whole number, found a string",
                "a.hcl:7: job \"j\" > group \"g\" > task \"a\" > colour: unknown key (allowed: driver, config, env, leader,"
                        + " lifecycle, kill_timeout, kill_signal, shutdown_delay, max_runtime, logs, restart, meta,"
                        + " resources, user, dispatch_payload, vault, consul, csi_plugin, artifact, template, identity, service,"
                        + " volume_mount, constraint, affinity, spread)",
                "a.hcl:9: job \"j\" > group \"g\" > task \"a\" > flavour: unknown key (allowed: driver, config, env, leader,"
                        + " lifecycle, kill_timeout, kill_signal, shutdown_delay, max_runtime, logs, restart, meta,"
                        + " resources, user, dispatch_payload, vault, consul, csi_plugin, artifact, template, identity, service,"
                        + " volume_mount, constraint, affinity, spread)",
                "a.hcl:8: job \"j\" > group \"g\" > task \"a\" > kill_timeout: unknown unit \"sec\" in duration \"5sec\""
                        + " (use ns, us, ms, s, m or h)",
                "a.hcl:13: job \"j\" > group \"g\" > task \"b\" > kill_signal: unknown signal \"SIGNOPE\" (e.g. SIGINT,"
                        + " SIGTERM, SIGQUIT, SIGUSR1)");
    }

    @Test
    void problemsInNestedBlocksOfDifferentGroupsAreAllReported() {
        List<JobFileException> all = problems("a.hcl", """
                job "j" {
                  group "g1" {
                    task "t" {
                      lifecycle {
                        hook = "later"
                      }
                    }
                    task "t" {
                      driver = "mock"
                    }
                  }
                  group "g2" {
                    restart {
                      mode = "sometimes"
                    }
                    task "u" {
                      driver = "mock"
                    }
                  }
                  group "g1" {
                    task "v" {
                      driver = "mock"
                    }
                  }
                }
                """);
        assertThat(messages(all)).containsExactly(
                "a.hcl:3: job \"j\" > group \"g1\" > task \"t\" > driver: is required (e.g. driver = \"raw_exec\")",
                "a.hcl:5: job \"j\" > group \"g1\" > task \"t\" > lifecycle > hook: unknown hook \"later\" (allowed:"
                        + " prestart, poststart, poststop)",
                "a.hcl:8: job \"j\" > group \"g1\" > task \"t\": duplicate task name (first at line 3)",
                "a.hcl:14: job \"j\" > group \"g2\" > restart > mode: must be fail or delay, found \"sometimes\"",
                "a.hcl:20: job \"j\" > group \"g1\": duplicate group name (first at line 2)");
    }

    @Test
    void jsonProblemsInDifferentGroupsAndTasksAreAllReported() {
        List<JobFileException> all = problems("a.json", """
                {"Job": {
                  "ID": "j",
                  "Type": "batch",
                  "TaskGroups": [
                    {"Name": "g1",
                     "Tasks": [
                       {"Name": "../x", "Driver": "mock"},
                       {"Name": "ok", "Driver": "mock",
                        "KillTimeOut": 5}
                     ]},
                    {"Name": "g2",
                     "Count": -1,
                     "Tasks": [
                       {"Name": "t", "Driver": "mock",
                        "KillTimeout": "soon"}
                     ]}
                  ]
                }}
                """);
        assertThat(all).extracting(JobFileException::line).containsExactly(7, 9, 12, 15);
        assertThat(all).extracting(JobFileException::key).containsExactly(
                "job \"j\" > group \"g1\" > task \"../x\"",
                "job \"j\" > group \"g1\" > task \"ok\" > KillTimeOut",
                "job \"j\" > group \"g2\" > Count",
                "job \"j\" > group \"g2\" > task \"t\" > KillTimeout");
        assertThat(all.get(0).problem()).startsWith("the task name ");
        assertThat(all.get(1).problem()).startsWith("unknown key (allowed: Driver, Config,");
        assertThat(all.get(2).problem()).isEqualTo("must not be negative (got -1)");
        assertThat(all.get(3).problem()).startsWith("invalid duration \"soon\"");
    }

    @Test
    void aSingleProblemIsAPlainJobFileException() {
        Throwable thrown = catchThrowable(() -> JobFileParser.parse("a.hcl",
                "job \"j\" {\n  group \"g\" {\n    task \"t\" {\n      driver = \"\"\n    }\n  }\n}\n"
                        .getBytes(StandardCharsets.UTF_8)));
        assertThat(thrown).isExactlyInstanceOf(JobFileException.class)
                .hasMessage("a.hcl:4: job \"j\" > group \"g\" > task \"t\" > driver: must not be empty");
        assertThat(((JobFileException) thrown).problems()).containsExactly((JobFileException) thrown);
    }

    @Test
    void aSyntaxErrorIsReportedAlone() {
        List<JobFileException> all = problems("a.hcl", "job \"j\" {\n  group \"g\" {\n    count = \n");
        assertThat(all).hasSize(1);
    }
}
