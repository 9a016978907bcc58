package io.drover.core.config;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code client} block's {@code host_volume "NAME" { path = "/srv/data", read_only = true }} blocks
 * (Nomad's client config keys). The path must be absolute and an existing directory when the agent starts (Nomad
 * checks that it exists; Drover mounts directories only). Reads the file system (one stat per volume); called
 * once while the config is read.
 */
final class HostVolumes {
    static final String KEY = "host_volume";
    private static final List<String> KEYS = List.of("path", "read_only");

    private HostVolumes() {}

    /** The volumes by name, in the order written; the first problem is thrown, naming the block and key. */
    static Map<String, HostVolumeConfig> read(MapReader client) throws TreeProblem {
        Map<String, HostVolumeConfig> out = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (Field f : client.all(KEY)) {
            String where = MapReader.join(client.path(), KEY);
            if (!(f.value() instanceof Node.Mapping block) || block.labels().size() != 1
                    || block.labels().get(0).isBlank()) {
                throw new TreeProblem(f.line(), where, "takes exactly one label, the volume's name: "
                        + "host_volume \"data\" { path = \"/srv/data\" }");
            }
            String name = block.labels().get(0);
            String path = where + " \"" + name + "\"";
            Integer first = lines.putIfAbsent(name, f.line());
            if (first != null) {
                throw new TreeProblem(f.line(), path, "host volume configured more than once (first at line " + first
                        + ")");
            }
            MapReader r = MapReader.open(block, path, client.vocabulary(), KEYS, List.of());
            if (!r.has("path")) {
                throw r.problem("path", "is required: the host directory to mount (e.g. path = \"/srv/data\")");
            }
            String dir = r.string("path", null);
            boolean readOnly = r.bool("read_only", false);
            out.put(name, new HostVolumeConfig(name, checkedDir(r, dir), readOnly));
        }
        return out;
    }

    private static String checkedDir(MapReader r, String dir) throws TreeProblem {
        Path p;
        try {
            p = Path.of(dir);
        } catch (InvalidPathException e) {
            throw r.problem("path", "\"" + dir + "\" is not a valid path");
        }
        if (!p.isAbsolute()) {
            throw r.problem("path", "must be an absolute path, found \"" + dir + "\"");
        }
        if (!Files.exists(p)) {
            throw r.problem("path", "\"" + dir + "\" does not exist (Nomad: failed to validate volume)");
        }
        if (!Files.isDirectory(p)) {
            throw r.problem("path", "\"" + dir + "\" is not a directory (Drover mounts directories only)");
        }
        return p.normalize().toString();
    }
}
