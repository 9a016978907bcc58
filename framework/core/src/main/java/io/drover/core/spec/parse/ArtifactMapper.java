package io.drover.core.spec.parse;

import io.drover.core.artifact.ClientPath;
import io.drover.core.spec.Artifact;
import io.drover.core.spec.ArtifactMode;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.util.List;
import java.util.Map;

/**
 * Maps a task's {@code artifact} block (Nomad's keys: source, destination, mode, options, headers). Checks what
 * can be checked before anything runs. Any go-getter source is accepted, as Nomad's {@code job validate} accepts
 * it (one this node cannot fetch — a cloud store, a remote git repository — fails its download at run time, naming
 * what it needs: {@link io.drover.core.artifact.RemoteSources}); a destination that escapes the allocation for
 * certain is refused ({@link ClientPath}: one with
 * <code>${...}</code> is checked when it runs), a checksum must be {@code type:hex} of a known
 * type. Pure.
 */
final class ArtifactMapper {
    private static final List<String> KEYS = List.of("source", "destination", "mode", "options", "headers",
            "chown");
    /** go-getter's checksum types and their hex lengths. */
    private static final Map<String, Integer> CHECKSUMS = Map.of("md5", 32, "sha1", 40, "sha256", 64, "sha512", 128);

    private ArtifactMapper() {}

    /** @return the artifact, null when it has a problem (recorded) */
    static Artifact artifact(Field field, MapReader task, String taskName, Problems p) {
        int before = p.size();
        String path = MapReader.join(task.path(), field.name());
        if (!(field.value() instanceof Node.Mapping m)) {
            p.add(new TreeProblem(field.line(), path, "must be a block: artifact { source = \"...\" }"));
            return null;
        }
        if (!m.labels().isEmpty()) {
            p.add(new TreeProblem(field.line(), path, "takes no label"));
            return null;
        }
        MapReader r = MapReader.open(m, path, task.vocabulary(), KEYS, List.of(), p);
        String source = p.read(() -> r.string("source", null), null);
        if (source == null && !r.has("source")) {
            p.add(r.problem("source", "is required (a path, file://, http(s):// or git:: URL)"));
        }
        String destination = p.read(() -> r.string("destination", Artifact.DEFAULT_DESTINATION),
                Artifact.DEFAULT_DESTINATION);
        ClientPath.parseProblem(destination, ClientPath.Kind.DESTINATION, "artifact destination", taskName)
                .ifPresent(msg -> p.add(r.problem("destination", msg)));
        String modeName = p.read(() -> r.string("mode", "any"), "any");
        ArtifactMode mode = ArtifactMode.fromWire(modeName).orElse(null);
        if (mode == null) {
            p.add(r.problem("mode", "must be any, file or dir, found \"" + modeName + "\""));
        }
        Map<String, String> options = p.read(() -> r.stringMap("options"), Map.of());
        String checksum = options.get("checksum");
        if (checksum != null) {
            checksumProblem(checksum).ifPresent(msg -> p.add(new TreeProblem(r.line("options"),
                    MapReader.join(r.keyPath("options"), "checksum"), msg)));
        }
        String archive = options.get("archive");
        if (archive != null && !archive.equals("false") && !archive.equals("true")
                && !List.of("tar", "tar.gz", "tgz", "zip", "gz").contains(archive)) {
            p.add(new TreeProblem(r.line("options"), MapReader.join(r.keyPath("options"), "archive"),
                    "must be false, or one of tar, tar.gz, tgz, zip, gz; found \"" + archive + "\""));
        }
        Map<String, String> headers = p.read(() -> r.stringMap("headers"), Map.of());
        p.read(() -> r.bool("chown"), null);
        if (p.size() != before) {
            return null;
        }
        return new Artifact(source, destination, mode, options, headers);
    }

    static java.util.Optional<String> checksumProblem(String checksum) {
        int colon = checksum.indexOf(':');
        String type = colon < 0 ? "" : checksum.substring(0, colon);
        Integer len = CHECKSUMS.get(type);
        if (len == null) {
            return java.util.Optional.of("must be <type>:<hex> with type md5, sha1, sha256 or sha512, found \""
                    + checksum + "\"");
        }
        String hex = checksum.substring(colon + 1);
        if (hex.length() != len || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return java.util.Optional.of("a " + type + " checksum is " + len + " hex digits, found \"" + hex + "\"");
        }
        return java.util.Optional.empty();
    }
}
