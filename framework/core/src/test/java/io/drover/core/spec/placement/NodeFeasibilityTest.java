package io.drover.core.spec.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Constraint;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeFeasibilityTest {
    static final NodeFeasibility NODE = NodeFeasibility.of(Map.of("kernel.name", "linux", "kernel.version", "6.1.0",
            "cpu.arch", "amd64", "cpu.numcores", "8", "os.name", "debian", "os.version", "12",
            "unique.hostname", "vm", "driver.mock", "1"), "9b1c0000-0000-4000-8000-000000000001", "vm", "dc1", "gpu",
            "default", Map.of("rack", "r1", "tags", "a,b,c"));

    private static boolean holds(String l, String op, String r) {
        return NODE.holds(new Constraint(null, null, l, op, r, 1));
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
        "${attr.kernel.name}|=|linux|true", "${attr.kernel.name}|==|windows|false", "${attr.kernel.name}|is|linux|true",
        "${attr.kernel.name}|!=|windows|true", "${attr.kernel.name}|not|linux|false",
        "${attr.cpu.numcores}|>=|4|true", "${attr.cpu.numcores}|>|10|false", "${attr.cpu.numcores}|<|10|true",
        "${attr.os.version}|<=|12|true", "${attr.cpu.arch}|>|aaa|true",
        "${attr.os.name}|regexp|^deb|true", "${attr.os.name}|regexp|ubuntu|false",
        "${meta.tags}|set_contains|a,c|true", "${meta.tags}|set_contains_all|a,d|false",
        "${meta.tags}|set_contains_any|d,b|true", "${meta.tags}|set_contains_any|d,e|false",
        "${attr.kernel.version}|version|>= 5.10, < 7|true", "${attr.kernel.version}|version|~> 6.2|false",
        "${attr.kernel.version}|version|~> 6.1.0|true", "${attr.kernel.version}|semver|>= 6.0.0|true",
        "${attr.os.version}|semver|>= 11|false",
        "${node.datacenter}|=|dc1|true", "${node.class}|=|gpu|true", "${node.unique.name}|=|vm|true",
        "${node.pool}|=|default|true", "${node.unique.id}|regexp|^9b1c|true", "${attr.driver.mock}|=|1|true",
        "${attr.driver.docker}|=|1|false", "${meta.rack}|=|r1|true", "linux|=|${attr.kernel.name}|true"})
    void nomadsOperatorsDecideAgainstThisNode(String l, String op, String r, boolean expected) {
        assertThat(holds(l, op, r)).isEqualTo(expected);
    }

    @Test
    void isSetAndIsNotSetLookAtTheNodeAndAMissingTargetFailsTheRest() {
        assertThat(holds("${attr.kernel.name}", "is_set", "")).isTrue();
        assertThat(holds("${attr.unique.consul.name}", "is_set", "")).isFalse();
        assertThat(holds("${attr.unique.consul.name}", "is_not_set", "")).isTrue();
        assertThat(holds("${attr.vault.version}", "!=", "1.0")).as("a missing target fails").isFalse();
        assertThat(holds("${attr.vault.version}", "version", ">= 1.0")).isFalse();
    }

    @Test
    void aBacktrackingRegexpFromAJobIsGivenUpNotRunForMinutes() {
        long t0 = System.nanoTime();
        assertThat(NodeFeasibility.regexp("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "^(a+)+$")).isFalse();
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - t0)).isLessThan(java.time.Duration.ofSeconds(5));
        assertThat(NodeFeasibility.regexp("debian", "^(d|e)+bian$")).isTrue();
    }

    private static Job parse(String hcl) throws Exception {
        return JobFileParser.parse("c.hcl", hcl.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aBridgeOrCniNetworkValidatesAndIsNotPlacedAsNomadsMissingNetwork() throws Exception {
        Job job = parse("""
                job "j" {
                  group "b" {
                    network {
                      mode = "bridge"
                      port "db" { to = 5432 }
                      dns { servers = ["1.1.1.1"] }
                    }
                    task "t" { driver = "mock" }
                  }
                  group "c" {
                    network { mode = "cni/mynet" }
                    task "t" { driver = "mock" }
                  }
                  group "h" {
                    network { mode = "host" }
                    task "t" { driver = "mock" }
                  }
                }
                """);
        List<NodeFeasibility.GroupPlacement> placed = NODE.place(job);
        assertThat(placed).extracting(NodeFeasibility.GroupPlacement::placeable).containsExactly(0, 0, 1);
        assertThat(placed.get(0).filtered()).containsExactly("missing network");
        assertThat(placed.get(0).failures()).containsExactly("Task Group \"b\" (failed to place 1 allocation):",
                "  * Constraint \"missing network\": 1 nodes excluded by filter (this node has host networking only: "
                        + "network modes bridge and cni/* need the CNI plugins (bridge, host-local, portmap, loopback) "
                        + "and a network namespace per allocation, which Drover does not set up)");
        assertThat(NodeFeasibility.placeable(job, placed).groups()).extracting(g -> g.count()).containsExactly(0, 0, 1);
    }

    @Test
    void aGroupWhoseConstraintsThisNodeFailsIsNotPlacedWithNomadsLines() throws Exception {
        Job job = parse("""
                job "j" {
                  constraint {
                    attribute = "${attr.kernel.name}"
                    value     = "linux"
                  }
                  group "win" {
                    count = 2
                    task "t" {
                      driver = "mock"
                      constraint {
                        attribute = "${attr.kernel.name}"
                        value     = "windows"
                      }
                    }
                  }
                  group "lin" {
                    count = 3
                    constraint {
                      distinct_hosts = true
                    }
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);
        assertThat(job.constraints()).extracting(Constraint::toString).containsExactly(
                "${attr.kernel.name} = linux", "${attr.kernel.name} = windows", "distinct_hosts");
        List<NodeFeasibility.GroupPlacement> placed = NODE.place(job);
        assertThat(placed.get(0).placeable()).isZero();
        assertThat(placed.get(0).failures()).containsExactly("Task Group \"win\" (failed to place 2 allocations):",
                "  * Constraint \"${attr.kernel.name} = windows\": 1 nodes excluded by filter");
        assertThat(placed.get(1).placeable()).as("distinct_hosts: one per node").isEqualTo(1);
        assertThat(placed.get(1).failures()).containsExactly("Task Group \"lin\" (failed to place 2 allocations):",
                "  * Constraint \"distinct_hosts\": 1 nodes excluded by filter");
    }

    @Test
    void nomadsJsonConstraintsReadTheSame() throws Exception {
        Job job = JobFileParser.parse("c.json", """
                {"Job": {"ID": "j", "Type": "system",
                  "Constraints": [{"LTarget": "${attr.os.name}", "RTarget": "^deb", "Operand": "regexp"}],
                  "Affinities": [{"LTarget": "${node.datacenter}", "RTarget": "dc1", "Operand": "=", "Weight": 50}],
                  "Spreads": [{"Attribute": "${node.datacenter}", "Weight": 50,
                               "SpreadTarget": [{"Value": "dc1", "Percent": 100}]}],
                  "TaskGroups": [{"Name": "g", "Count": 1,
                    "Constraints": [{"LTarget": "", "RTarget": "", "Operand": "distinct_hosts"}],
                    "Tasks": [{"Name": "t", "Driver": "mock", "Constraints": null}]}]}}
                """.getBytes(StandardCharsets.UTF_8));
        assertThat(job.constraints()).extracting(Constraint::toString)
                .containsExactly("${attr.os.name} regexp ^deb", "distinct_hosts");
        assertThat(NODE.place(job)).allSatisfy(g -> assertThat(g.failures()).isEmpty());
    }

    @Test
    void aSystemJobPlacesOneAllocationPerGroup() throws Exception {
        Job job = parse("""
                job "s" {
                  type = "sysbatch"
                  group "a" {
                    task "t" { driver = "mock" }
                  }
                  group "b" {
                    count = 0
                    task "t" { driver = "mock" }
                  }
                }
                """);
        assertThat(NODE.place(job)).extracting(NodeFeasibility.GroupPlacement::placeable).containsExactly(1, 0);
        assertThat(job.type().runsToCompletion()).isTrue();
    }
}
