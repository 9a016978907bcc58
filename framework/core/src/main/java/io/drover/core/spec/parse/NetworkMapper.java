package io.drover.core.spec.parse;

import io.drover.core.spec.Network;
import io.drover.core.spec.Port;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a group's {@code network} block: {@code mode = "host"} (the only mode one node without CNI has; bridge and
 * cni/* are kept, and this node does not place them: Nomad's {@code missing network}, {@code NodeFeasibility};
 * none and other modes are refused naming the mode) and its {@code port "label" { static = N; to = N }} blocks. A label must be
 * usable in an environment variable name ({@code NOMAD_PORT_<label>}); labels and static ports are unique. Pure.
 */
final class NetworkMapper {
    private static final List<String> KEYS = List.of("mode", "hostname", "dns");
    private static final List<String> PORT_KEYS = List.of("static", "to", "host_network");

    private NetworkMapper() {}

    /** @return the group's network, {@link Network#NONE} when absent, null when bad (recorded) */
    static Network network(MapReader group, Problems p) {
        if (group.all("network").size() > 1) {
            p.add(new TreeProblem(group.all("network").get(1).line(), group.keyPath("network"),
                    "a group has at most one network block"));
            return null;
        }
        MapReader r = group.child("network", KEYS, List.of("port"), p);
        if (r == null) {
            return group.has("network") ? null : Network.NONE;
        }
        int before = p.size();
        String mode = p.read(() -> r.string("mode", "host"), "host");
        boolean cni = mode.equals("bridge") || mode.startsWith("cni/");
        if (!mode.equals("host") && !cni) {
            p.add(r.problem("mode", "network mode \"" + mode + "\" needs a network namespace per allocation that "
                    + "Drover does not set up (use mode = \"host\")"));
        }
        if (r.has("dns") && !cni) {
            p.add(r.problem("dns", "needs bridge networking (mode = \"bridge\")"));
        }
        p.read(() -> r.string("hostname", null), null);
        List<Port> ports = new ArrayList<>();
        Map<String, Integer> labels = new HashMap<>();
        Map<Long, String> statics = new HashMap<>();
        for (Field f : r.all("port")) {
            String path = MapReader.join(r.path(), f.name());
            if (!(f.value() instanceof Node.Mapping m) || m.labels().size() != 1) {
                p.add(new TreeProblem(f.line(), path, "takes exactly one label: port \"<label>\" { ... }"));
                continue;
            }
            String label = m.labels().get(0);
            String portPath = path + " \"" + label + "\"";
            if (!label.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                p.add(new TreeProblem(f.line(), portPath, "the port label must be letters, digits and _ (it names "
                        + "NOMAD_PORT_<label>)"));
                continue;
            }
            Integer first = labels.putIfAbsent(label, f.line());
            if (first != null) {
                p.add(new TreeProblem(f.line(), portPath, "duplicate port label (first at line " + first + ")"));
                continue;
            }
            MapReader pr = MapReader.open(m, portPath, r.vocabulary(), PORT_KEYS, List.of(), p);
            long stat = p.read(() -> pr.integer("static", 0, 1, 65535), 0L);
            long to = p.read(() -> pr.integer("to", 0, -1, 65535), 0L);
            p.read(() -> pr.string("host_network", null), null);
            if (stat > 0) {
                String other = statics.putIfAbsent(stat, label);
                if (other != null) {
                    p.add(pr.problem("static", "port " + stat + " is already port \"" + other + "\""));
                }
            }
            ports.add(new Port(label, (int) stat, (int) to));
        }
        return p.size() != before ? null : new Network(mode, ports);
    }
}
