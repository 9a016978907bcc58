package io.drover.core.spec.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Nomad's host volume feasibility on this one node: a group whose host volume the node lacks is not placed. */
class HostVolumePlacementTest {
    private static final NodeFeasibility NODE = NodeFeasibilityTest.NODE.withHostVolumes(Map.of(
            "shared", false, "certs", true, "scratch[0]", false, "scratch[1]", false));

    private static Job job(int count, String volume) throws Exception {
        return JobFileParser.parse("v.hcl", ("""
                job "j" {
                  group "g" {
                    count = %d
                    %s
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """).formatted(count, volume).getBytes(StandardCharsets.UTF_8));
    }

    private static NodeFeasibility.GroupPlacement place(int count, String volume) throws Exception {
        return NODE.place(job(count, volume)).get(0);
    }

    @Test
    void aVolumeTheNodeHasIsPlaced() throws Exception {
        NodeFeasibility.GroupPlacement p = place(3, "volume \"d\" {\n type = \"host\"\n source = \"shared\"\n }");
        assertThat(p.placeable()).isEqualTo(3);
        assertThat(p.failures()).isEmpty();
    }

    @Test
    void aVolumeTheNodeLacksKeepsTheGroupOffWithNomadsWords() throws Exception {
        NodeFeasibility.GroupPlacement p = place(2, "volume \"d\" {\n type = \"host\"\n source = \"nope\"\n }");
        assertThat(p.placeable()).isZero();
        assertThat(p.failures()).containsExactly("Task Group \"g\" (failed to place 2 allocations):",
                "  * Constraint \"missing compatible host volumes\": 1 nodes excluded by filter");
        assertThat(NodeFeasibility.placeable(job(2, "volume \"d\" {\n type = \"host\"\n source = \"nope\"\n }"),
                List.of(p)).groups().get(0).count()).isZero();
    }

    @Test
    void aReadWriteRequestOfAReadOnlyHostVolumeIsNotMetButAReadOnlyOneIs() throws Exception {
        assertThat(place(1, "volume \"c\" {\n type = \"host\"\n source = \"certs\"\n }").placeable()).isZero();
        assertThat(place(1, "volume \"c\" {\n type = \"host\"\n source = \"certs\"\n read_only = true\n }")
                .placeable()).isEqualTo(1);
    }

    @Test
    void perAllocVolumesPlaceTheIndexesTheNodeHas() throws Exception {
        NodeFeasibility.GroupPlacement p = place(3,
                "volume \"s\" {\n type = \"host\"\n source = \"scratch\"\n per_alloc = true\n }");
        assertThat(p.placeable()).as("scratch[0] and scratch[1], not scratch[2]").isEqualTo(2);
        assertThat(p.filtered()).containsExactly("missing compatible host volumes");
    }

    @Test
    void aStickyRequestOfAStaticVolumeIsNeverMet() throws Exception {
        assertThat(place(1, "volume \"d\" {\n type = \"host\"\n source = \"shared\"\n sticky = true\n }")
                .placeable()).isZero();
    }
}
