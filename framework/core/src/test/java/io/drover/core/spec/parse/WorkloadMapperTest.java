package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A task's identity blocks and user, and a group's max_run_duration: checked, kept in Nomad's shape. */
class WorkloadMapperTest {
    private static String job(String task, String group) {
        return "job \"w\" {\n type = \"batch\"\n group \"g\" {\n" + group + "\n task \"t\" {\n driver = \"mock\"\n" + task + "\n }\n }\n}\n";
    }

    private static List<String> problems(String text) {
        try {
            ClusterFieldsTest.parse("w.hcl", text);
        } catch (JobFileException e) {
            return e.problems().stream().map(Throwable::getMessage).toList();
        }
        throw new AssertionError("no problem in " + text);
    }

    @Test
    void identitiesUserAndMaxRunDurationAreKeptInNomadsShapeAndReadBackFromJson() throws Exception {
        Job hcl = ClusterFieldsTest.parse("w.hcl", job("""
                user = "nobody"
                identity { env = true }
                identity {
                  name = "api"
                  aud  = ["api.example"]
                  file = true
                  ttl  = "10m"
                  change_mode   = "signal"
                  change_signal = "SIGHUP"
                }
                """, "max_run_duration = \"5s\""));
        Task t = hcl.groups().get(0).tasks().get(0);
        assertThat(t.cluster().fields()).containsExactly(
                Map.entry("Identity", Map.of("Name", "default", "Audience", List.of("nomadproject.io"),
                        "ChangeMode", "noop", "Env", true, "File", false)),
                Map.entry("Identities", List.of(Map.of("Name", "api", "Audience", List.of("api.example"),
                        "ChangeMode", "signal", "ChangeSignal", "SIGHUP", "Env", false, "File", true,
                        "TTL", 600_000_000_000L))),
                Map.entry("User", "nobody"));
        assertThat(hcl.groups().get(0).cluster().get("MaxRunDuration")).isEqualTo(5_000_000_000L);

        Job json = ClusterFieldsTest.parse("w.json", """
                {"Job": {"ID": "w", "Type": "batch", "TaskGroups": [{"Name": "g", "MaxRunDuration": 5000000000,
                  "Tasks": [{"Name": "t", "Driver": "mock", "User": "nobody",
                    "Identity": {"Name": "default", "Audience": ["nomadproject.io"], "ChangeMode": "noop",
                                 "Env": true, "File": false},
                    "Identities": [{"Name": "api", "Audience": ["api.example"], "ChangeMode": "signal",
                                    "ChangeSignal": "SIGHUP", "Env": false, "File": true, "TTL": 600000000000}]}]}]}}
                """);
        assertThat(json.groups().get(0).tasks().get(0).cluster()).isEqualTo(t.cluster());
        assertThat(json.groups().get(0).cluster()).isEqualTo(hcl.groups().get(0).cluster());
    }

    @Test
    void vaultAndConsulIdentitiesAreRefusedNamingWhatTheyNeedAndBadKeysAllAtOnce() {
        assertThat(problems(job("""
                identity {
                  name = "vault_default"
                  aud  = ["vault.io"]
                  file = true
                }
                identity {
                  name = "x"
                  aud  = ["consul.io"]
                }
                identity {
                  name        = "y"
                  change_mode = "reload"
                  filepath    = "../../etc/x"
                  file        = true
                }
                user = "a b"
                """, "max_run_duration = \"0s\""))).containsExactly(
                "w.hcl:4: job \"w\" > group \"g\" > max_run_duration: must be positive",
                "w.hcl:7: job \"w\" > group \"g\" > task \"t\" > identity: needs Vault (identity \"vault_default\", "
                        + "line 7), which one Drover node does not have",
                "w.hcl:12: job \"w\" > group \"g\" > task \"t\" > identity: needs Consul (identity \"x\", line 12), "
                        + "which one Drover node does not have",
                "w.hcl:18: job \"w\" > group \"g\" > task \"t\" > identity > change_mode: must be noop, restart or "
                        + "signal, found \"reload\"",
                "w.hcl:19: job \"w\" > group \"g\" > task \"t\" > identity > filepath: must be a path inside the task "
                        + "directory, found \"../../etc/x\"",
                "w.hcl:22: job \"w\" > group \"g\" > task \"t\" > user: not a user name: \"a b\"");
    }

    @Test
    void maxRunDurationIsRefusedOutsideBatchAndSysbatchJobsInNomadsWords() {
        assertThat(problems("job \"s\" {\n group \"g\" {\n max_run_duration = \"5s\"\n"
                + " task \"t\" { driver = \"mock\" }\n }\n}\n")).containsExactly(
                "w.hcl:3: job \"s\" > group \"g\" > max_run_duration: Job type \"service\" does not allow "
                        + "max_run_duration");
    }
}
