package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocatedResources;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group network in host mode through the real engine and raw_exec: each allocation's ports reach its task as
 * Nomad's variables and the task can listen on them; two allocations never share one; a static port in use
 * fails the allocation at setup with one line; ports are released when allocations end, kept in their record.
 */
@ExtendWith(ProcessLeakCheck.class)
class NetworkEngineTest {
    @TempDir
    Path dataDir;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }

    private static String job(int count, String ports) {
        return """
                job "net" {
                  type = "batch"
                  group "g" {
                    count = %d
                    network {
                      mode = "host"
                      %s
                    }
                    task "show" {
                      driver = "raw_exec"
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args = ["-c", "echo http=$NOMAD_PORT_http ip=$NOMAD_IP_http addr=$NOMAD_ADDR_http host=$NOMAD_HOST_PORT_http hostip=$NOMAD_HOST_IP_http alloc=$NOMAD_ALLOC_PORT_http admin=${NOMAD_PORT_admin-none}"]
                      }
                    }
                  }
                }
                """.formatted(count, ports, RawExecJobs.markerEnv());
    }

    @Test
    void dynamicAndStaticPortsReachTheTasksWithoutCollisions() throws Exception {
        int admin = freePort();
        String ports = "port \"http\" {}\nport \"admin\" {\n static = " + admin + "\n}";
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            List<AllocationState> placed = jobs.engine.submit(RawExecJobs.parse(job(2, ports)));
            AllocationState a = jobs.engine.terminal(placed.get(0).id()).get(60, TimeUnit.SECONDS);
            AllocationState b = jobs.engine.terminal(placed.get(1).id()).get(60, TimeUnit.SECONDS);
            assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            int http = a.resources().ports().stream().filter(p -> p.label().equals("http")).findFirst()
                    .orElseThrow().value();
            assertThat(http).isBetween(20000, 32000);
            assertThat(jobs.stdout(a, "show")).isEqualTo("http=" + http + " ip=127.0.0.1 addr=127.0.0.1:" + http
                    + " host=" + http + " hostip=127.0.0.1 alloc=" + http + " admin=" + admin + "\n");
            AllocatedResources.NetworkResource net = a.resources().shared().networks().get(0);
            assertThat(net.mode()).isEqualTo("host");
            assertThat(net.reservedPorts()).extracting(AllocatedResources.NetworkPort::value).containsExactly(admin);
            assertThat(net.dynamicPorts()).extracting(AllocatedResources.NetworkPort::value).containsExactly(http);

            // the second allocation asks for the same static port: one line, nothing runs
            assertThat(b.clientStatus()).isEqualTo(ClientStatus.FAILED);
            var events = b.taskStates().get("show").events();
            assertThat(events).extracting(e -> e.type()).contains(TaskEventType.SETUP_FAILURE)
                    .doesNotContain(TaskEventType.STARTED);
            assertThat(events.stream().filter(e -> e.type() == TaskEventType.SETUP_FAILURE).findFirst()
                    .orElseThrow().displayMessage()).isEqualTo("network: static port " + admin
                            + " (port \"admin\") is already used by allocation " + a.id());
            assertThat(b.allocatedResources()).isNull();

            // a's ports were released when it ended (kept in its record): a new allocation can have them
            AllocationState again = jobs.run(job(1, ports));
            assertThat(again.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(again.resources().ports()).extracting(AllocatedResources.PortMapping::value).contains(admin);
            assertThat(jobs.engine.allocation(a.id()).orElseThrow().resources()).isEqualTo(a.resources());
        }
    }

    @Test
    void aBridgeNetworkSubmittedPastPlacementFailsAtSetupAndNothingRuns() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job(1, "port \"http\" {}").replace("mode = \"host\"",
                    "mode = \"bridge\""));
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            var events = done.taskStates().get("show").events();
            assertThat(events).extracting(e -> e.type()).doesNotContain(TaskEventType.STARTED);
            assertThat(events).anySatisfy(e -> assertThat(e.displayMessage()).startsWith(
                    "network: mode \"bridge\": missing network (this node has host networking only"));
            assertThat(done.allocatedResources()).isNull();
        }
    }

    @Test
    void aStaticPortInUseOnTheHostFailsTheAllocationInOneLine() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = busy.getLocalPort();
            try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
                AllocationState done = jobs.run(job(1, "port \"http\" {\n static = " + port + "\n}"));
                assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
                assertThat(done.taskStates().get("show").events()).anySatisfy(e -> assertThat(e.displayMessage())
                        .isEqualTo("network: static port " + port + " (port \"http\") is already in use on the host"));
            }
        }
    }
}
