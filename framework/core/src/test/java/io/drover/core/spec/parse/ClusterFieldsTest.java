package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The blocks a cluster gives their meaning are kept in Nomad's API names and shape, from HCL and from Nomad's
 * JSON alike, and a priority is the job's own.
 */
class ClusterFieldsTest {
    static final String HCL = """
            job "kept" {
              priority    = 70
              all_at_once = true
              node_pool   = "prod"
              update {
                max_parallel     = 2
                min_healthy_time = "10s"
                auto_revert      = true
              }
              reschedule {
                attempts = 0
                unlimited = false
              }
              migrate { max_parallel = 1 }
              affinity {
                attribute = "${node.datacenter}"
                value     = "dc1"
                weight    = 40
              }
              spread {
                attribute = "${node.datacenter}"
                target "dc1" { percent = 70 }
              }
              group "g" {
                reschedule {
                  delay          = "30s"
                  delay_function = "exponential"
                }
                ephemeral_disk {
                  size   = 500
                  sticky = true
                }
                scaling {
                  min = 1
                  max = 4
                  policy { cooldown = "1m" }
                }
                task "t" {
                  driver = "mock"
                  affinity {
                    attribute = "${attr.cpu.arch}"
                    operator  = "!="
                    value     = "arm64"
                    weight    = -50
                  }
                  resources {
                    cpu  = 200
                    disk = 150
                  }
                }
              }
            }
            """;

    static Job parse(String name, String text) throws JobFileException {
        return JobFileParser.parse(name, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void hclBlocksAreKeptInNomadsApiShape() throws Exception {
        Job job = parse("kept.hcl", HCL);

        assertThat(job.priority()).isEqualTo(70);
        assertThat(job.cluster().fields()).containsExactly(
                Map.entry("Update", Map.of("MaxParallel", 2L, "MinHealthyTime", 10_000_000_000L, "AutoRevert", true)),
                Map.entry("Reschedule", Map.of("Attempts", 0L, "Unlimited", false)),
                Map.entry("Migrate", Map.of("MaxParallel", 1L)),
                Map.entry("NodePool", "prod"),
                Map.entry("Affinities", List.of(Map.of("LTarget", "${node.datacenter}", "RTarget", "dc1",
                        "Operand", "=", "Weight", 40L))),
                Map.entry("Spreads", List.of(Map.of("Attribute", "${node.datacenter}", "Weight", 50L,
                        "SpreadTarget", List.of(Map.of("Value", "dc1", "Percent", 70L))))),
                Map.entry("AllAtOnce", true));
        TaskGroup g = job.groups().get(0);
        assertThat(g.cluster().fields()).containsExactly(
                Map.entry("ReschedulePolicy", Map.of("Delay", 30_000_000_000L, "DelayFunction", "exponential")),
                Map.entry("Scaling", Map.of("Min", 1L, "Max", 4L, "Policy", Map.of("cooldown", "1m"))),
                Map.entry("EphemeralDisk", Map.of("SizeMB", 500L, "Sticky", true)));
        assertThat(g.tasks().get(0).cluster().fields()).containsExactly(Map.entry("Affinities",
                List.of(Map.of("LTarget", "${attr.cpu.arch}", "RTarget", "arm64", "Operand", "!=", "Weight", -50L))));
        assertThat(g.tasks().get(0).runtime().resources().diskMb()).isEqualTo(150);
        assertThat(g.tasks().get(0).runtime().resources().cpu()).isEqualTo(200);
    }

    @Test
    void nomadsJsonSpellingGivesTheSameFields() throws Exception {
        String json = """
                {"Job": {"ID": "kept", "Priority": 70, "AllAtOnce": true, "NodePool": "prod",
                  "Update": {"MaxParallel": 2, "MinHealthyTime": 10000000000, "AutoRevert": true, "HealthCheck": ""},
                  "Reschedule": {"Attempts": 0, "Unlimited": false},
                  "Migrate": {"MaxParallel": 1},
                  "Affinities": [{"LTarget": "${node.datacenter}", "RTarget": "dc1", "Operand": "=", "Weight": 40}],
                  "Spreads": [{"Attribute": "${node.datacenter}", "Weight": 50,
                               "SpreadTarget": [{"Value": "dc1", "Percent": 70}]}],
                  "Status": "running", "Version": 3, "CreateIndex": 17, "ModifyIndex": 20, "Stable": false,
                  "TaskGroups": [{"Name": "g",
                    "ReschedulePolicy": {"Delay": 30000000000, "DelayFunction": "exponential"},
                    "Scaling": {"Min": 1, "Max": 4, "Policy": {"cooldown": "1m"}},
                    "EphemeralDisk": {"SizeMB": 500, "Sticky": true},
                    "Tasks": [{"Name": "t", "Driver": "mock",
                      "Affinities": [{"LTarget": "${attr.cpu.arch}", "RTarget": "arm64", "Operand": "!=",
                                      "Weight": -50}],
                      "Resources": {"CPU": 200, "DiskMB": 150}}]}]}}
                """;
        Job fromJson = parse("kept.json", json);
        Job fromHcl = parse("kept.hcl", HCL);

        assertThat(fromJson.priority()).isEqualTo(70);
        assertThat(fromJson.cluster()).isEqualTo(fromHcl.cluster());
        assertThat(fromJson.groups().get(0).cluster()).isEqualTo(fromHcl.groups().get(0).cluster());
        assertThat(fromJson.groups().get(0).tasks().get(0).cluster())
                .isEqualTo(fromHcl.groups().get(0).tasks().get(0).cluster());
        assertThat(fromJson.groups().get(0).tasks().get(0).runtime().resources())
                .isEqualTo(fromHcl.groups().get(0).tasks().get(0).runtime().resources());
    }

    @Test
    void aJobWithoutThemHasNomadsDefaultPriorityAndNoFields() throws Exception {
        Job job = parse("plain.hcl", "job \"p\" {\n group \"g\" {\n task \"t\" { driver = \"mock\" }\n }\n}\n");

        assertThat(job.priority()).isEqualTo(50);
        assertThat(job.cluster().fields()).isEmpty();
        assertThat(job.groups().get(0).cluster().fields()).isEmpty();
    }

    @Test
    void badValuesInJsonBlocksAreReportedAllAtOnceNamingNomadsKeys() {
        String json = """
                {"Job": {"ID": "bad", "Priority": 101,
                  "Update": {"MaxParallel": "two", "Bogus": 1},
                  "TaskGroups": [{"Name": "g", "EphemeralDisk": {"SizeMB": -1},
                    "Tasks": [{"Name": "t", "Driver": "mock", "Resources": {"DiskMB": -5}}]}]}}
                """;
        assertThatThrownBy(() -> parse("bad.json", json)).isInstanceOfSatisfying(JobFileException.class, e ->
                assertThat(e.problems().stream().map(Throwable::getMessage).toList().toString()).contains("Priority: must be at most 100", "Update > MaxParallel: must be",
                        "Update > Bogus: unknown key", "EphemeralDisk > SizeMB: must not be negative",
                        "Resources > DiskMB: must not be negative"));
    }
}
