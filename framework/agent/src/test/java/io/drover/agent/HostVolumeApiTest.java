package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.config.ClientConfig;
import io.drover.core.config.HostVolumeConfig;
import io.drover.core.config.NodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's host volumes over the API: its fingerprint, and a group asking for one it lacks is not placed. */
class HostVolumeApiTest {
    @TempDir
    Path tmp;

    private ClientConfig withVolume(Path dir) {
        ClientConfig d = ClientConfig.defaults();
        NodeConfig n = d.node();
        return new ClientConfig(d.gcInterval(), d.gcMaxAllocs(), d.gcDiskUsageThreshold(), d.gcInodeUsageThreshold(),
                d.gcParallelDestroys(), d.gcKillPolicy(), d.maxKillTimeout(), d.recordRetention(),
                d.driverStartTimeout(), d.taskLimits(), d.dynamicPorts(), new NodeConfig(n.name(), n.datacenter(),
                        n.nodeClass(), n.nodePool(), n.meta(),
                        Map.of("shared", new HostVolumeConfig("shared", dir.toString(), true))));
    }

    @Test
    void theNodeShowsItsHostVolumesAndAGroupAskingAnotherIsNotPlaced() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        try (TestAgent api = TestAgent.start(tmp, null, null, withVolume(dir))) {
            JsonNode nodes = api.get("/v1/nodes").json();
            JsonNode node = api.get("/v1/node/" + nodes.get(0).path("ID").asText()).json();
            assertThat(node.path("HostVolumes").toString()).isEqualTo("{\"shared\":{\"Name\":\"shared\",\"Path\":\""
                    + dir + "\",\"ReadOnly\":true,\"ID\":\"\"}}");

            TestAgent.Resp r = api.call("PUT", "/v1/jobs", PlacementApiTest.hcl("""
                    job "vols" {
                      type = "batch"
                      group "has" {
                        volume "v" {
                          type      = "host"
                          source    = "shared"
                          read_only = true
                        }
                        task "t" {
                          driver = "mock"
                          config { run_for = "10ms" }
                        }
                      }
                      group "lacks" {
                        volume "v" {
                          type   = "host"
                          source = "elsewhere"
                        }
                        task "t" {
                          driver = "mock"
                          config { run_for = "10ms" }
                        }
                      }
                    }
                    """));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.json().path("Allocations")).hasSize(1);
            assertThat(r.json().path("PlacementFailures").toString()).isEqualTo(
                    "[\"Task Group \\\"lacks\\\" (failed to place 1 allocation):\","
                            + "\"  * Constraint \\\"missing compatible host volumes\\\": 1 nodes excluded by filter\"]");
            JsonNode job = api.get("/v1/job/vols").json();
            assertThat(job.path("TaskGroups").get(0).path("Volumes").path("v").path("Source").asText())
                    .isEqualTo("shared");
        }
    }
}
