package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.PortRange;
import io.drover.core.spec.Network;
import io.drover.core.spec.Port;
import io.drover.core.state.AllocatedResources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortAllocatorTest {
    private static Network net(Port... ports) {
        return new Network("host", List.of(ports));
    }

    private static List<Integer> values(PortAllocator.Assignment a) {
        return a.resources().ports().stream().map(AllocatedResources.PortMapping::value).toList();
    }

    @Test
    void dynamicPortsComeFromTheRangeWithoutCollisionsAndComeBackWhenReleased() {
        PortAllocator ports = new PortAllocator(new PortRange(30000, 30002), p -> true);
        PortAllocator.Assignment a = ports.allocate("a", net(new Port("http", 0, 0), new Port("admin", 0, 9000)));
        PortAllocator.Assignment b = ports.allocate("b", net(new Port("http", 0, 0)));
        assertThat(values(a)).containsExactly(30000, 30001);
        assertThat(values(b)).containsExactly(30002);
        assertThat(a.resources().ports().get(1).to()).isEqualTo(9000);
        PortAllocator.Assignment c = ports.allocate("c", net(new Port("http", 0, 0)));
        assertThat(c.resources()).isNull();
        assertThat(c.problem()).isEqualTo("network: no free dynamic port left in 30000-30002 (port \"http\")");
        ports.release("a");
        ports.release("a"); // idempotent
        assertThat(values(ports.allocate("d", net(new Port("x", 0, 0))))).containsExactly(30000);
        assertThat(ports.held()).isEqualTo(Set.of(30000, 30002));
    }

    @Test
    void aStaticPortHeldByAnotherAllocationIsRefusedAndNothingIsReserved() {
        PortAllocator ports = new PortAllocator(new PortRange(30000, 30010), p -> true);
        assertThat(values(ports.allocate("a", net(new Port("web", 8080, 0))))).containsExactly(8080);
        PortAllocator.Assignment b = ports.allocate("b", net(new Port("dyn", 0, 0), new Port("web", 8080, 0)));
        assertThat(b.problem()).isEqualTo("network: static port 8080 (port \"web\") is already used by allocation a");
        assertThat(ports.held()).as("b's dynamic port was given back").isEqualTo(Set.of(8080));
    }

    @Test
    void aPortBoundOnTheHostIsNeverGiven() throws IOException {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = busy.getLocalPort();
            PortAllocator ports = new PortAllocator(new PortRange(port, Math.min(65535, port + 1)));
            PortAllocator.Assignment s = ports.allocate("a", net(new Port("web", port, 0)));
            assertThat(s.problem()).contains("static port " + port).contains("already in use on the host");
            PortAllocator.Assignment d = ports.allocate("b", net(new Port("dyn", 0, 0)));
            if (d.resources() != null) {
                assertThat(values(d)).doesNotContain(port);
            }
        }
    }

    @Test
    void recordedPortsAreReservedAgainAfterARestart() {
        PortAllocator before = new PortAllocator(new PortRange(30000, 30001), p -> true);
        AllocatedResources res = before.allocate("a", net(new Port("http", 0, 0))).resources();
        PortAllocator after = new PortAllocator(new PortRange(30000, 30001), p -> true);
        after.reserve("a", res);
        assertThat(values(after.allocate("b", net(new Port("http", 0, 0))))).containsExactly(30001);
    }
}
