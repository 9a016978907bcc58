package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a task's {@code ${attr.*}}, {@code ${node.*}} and {@code ${meta.*}} resolve to on this node. */
class NodeInfoVarsTest {
    @Test
    void theAttributesTheNodesFieldsAndItsMetaAreTheTasksNodeVariables() {
        NodeInfo node = new NodeInfo("id-1", "host-a", "dc7", "gpu", "pool-x",
                Map.of("cpu.arch", "amd64", "kernel.name", "linux"), Map.of("rack", "r1"), Map.of());
        assertThat(node.interpolationVars()).containsExactlyInAnyOrderEntriesOf(Map.of("attr.cpu.arch", "amd64",
                "attr.kernel.name", "linux", "meta.rack", "r1", "node.unique.id", "id-1", "node.unique.name",
                "host-a", "node.datacenter", "dc7", "node.class", "gpu", "node.pool", "pool-x", "node.region",
                "global"));
    }
}
