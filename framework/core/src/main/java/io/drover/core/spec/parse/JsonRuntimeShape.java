package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run-time blocks of a job in Nomad's API JSON shape, rewritten into the jobspec's for {@link JobMapper}
 * (called by {@link JsonJobShape}): a task's {@code Artifacts} ({@code GetterSource}, {@code RelativeDest},
 * {@code GetterMode}, {@code GetterOptions}, {@code GetterHeaders}) and {@code Templates} ({@code EmbeddedTmpl},
 * {@code SourcePath}, {@code DestPath}, {@code ChangeMode}, {@code ChangeSignal}, {@code Splay} in nanoseconds,
 * {@code Perms}, {@code Envvars}, {@code LeftDelim}, {@code RightDelim}, {@code ErrMissingKey}), and a group's
 * {@code Networks} ({@code Mode}, {@code ReservedPorts} and {@code DynamicPorts} of {@code Label}, {@code Value},
 * {@code To}, {@code HostNetwork}) become repeated {@code artifact}, {@code template} and {@code network} blocks with
 * {@code port "label"} blocks; a group's {@code Volumes} (an object by name) become {@code volume "name"} blocks and
 * a task's {@code VolumeMounts} {@code volume_mount} blocks. The written names stay for messages; a key Drover does not know stays unknown (so it
 * is refused) unless it holds Nomad's "unset" value ({@code null}, "", 0, false, [] or {}), which
 * {@code nomad job run -output} writes for every field a jobspec left out. Pure.
 */
final class JsonRuntimeShape {
    private JsonRuntimeShape() {}

    private static final Map<String, String> ARTIFACT = Map.of("GetterSource", "source", "RelativeDest",
            "destination", "GetterMode", "mode", "GetterOptions", "options", "GetterHeaders", "headers");

    private static final Map<String, String> TEMPLATE = Map.ofEntries(Map.entry("EmbeddedTmpl", "data"),
            Map.entry("SourcePath", "source"), Map.entry("DestPath", "destination"),
            Map.entry("ChangeMode", "change_mode"), Map.entry("ChangeSignal", "change_signal"),
            Map.entry("Splay", "splay"), Map.entry("Perms", "perms"), Map.entry("Envvars", "env"),
            Map.entry("LeftDelim", "left_delimiter"), Map.entry("RightDelim", "right_delimiter"),
            Map.entry("ErrMissingKey", "error_on_missing_key"), Map.entry("Wait", "wait"), Map.entry("Uid", "uid"),
            Map.entry("Gid", "gid"), Map.entry("Once", "once"), Map.entry("ChangeScript", "change_script"));

    private static final Map<String, String> WAIT = Map.of("Min", "min", "Max", "max");

    private static final Map<String, String> CHANGE_SCRIPT = Map.of("Command", "command", "Args", "args", "Timeout",
            "timeout", "FailOnError", "fail_on_error");

    private static final Map<String, String> NETWORK = Map.of("Mode", "mode", "Hostname", "hostname", "DNS", "dns");

    private static final Map<String, String> PORT = Map.of("To", "to", "HostNetwork", "host_network");

    /** A group's {@code Volumes} (Nomad's {@code VolumeRequest}s by name) and a task's {@code VolumeMounts}. */
    private static final Map<String, String> VOLUME = Map.of("Type", "type", "Source", "source", "ReadOnly",
            "read_only", "Sticky", "sticky", "PerAlloc", "per_alloc", "AccessMode", "access_mode", "AttachmentMode",
            "attachment_mode", "MountOptions", "mount_options");

    private static final Map<String, String> VOLUME_MOUNT = Map.of("Volume", "volume", "Destination", "destination",
            "ReadOnly", "read_only", "PropagationMode", "propagation_mode", "SELinuxLabel", "selinux_label");

    /** Object keys whose value is kept as written (string maps). */
    private static final Set<String> VERBATIM = Set.of("GetterOptions", "GetterHeaders");

    /** Whether {@code name} is one of the lists this class rewrites. */
    static boolean handles(String name) {
        return name.equals("Artifacts") || name.equals("Templates") || name.equals("Networks")
                || name.equals("Volumes") || name.equals("VolumeMounts");
    }

    /** {@code "Artifacts": [...]}, {@code "Templates": [...]} or {@code "Networks": [...]} to repeated blocks. */
    static List<Field> blocks(Field list) {
        if (list.name().equals("Volumes") && list.value() instanceof Node.Mapping byName) {
            List<Field> out = new ArrayList<>();
            for (Field v : byName.fields()) {
                if (!(v.value() instanceof Node.Mapping m)) {
                    out.add(new Field("volume", list.name(), v.value(), v.line()));
                    continue;
                }
                Node.Mapping withoutName = new Node.Mapping(List.of(), m.fields().stream()
                        .filter(x -> !x.name().equals("Name")).toList(), m.line());
                Field b = block("volume", list.name(), withoutName, VOLUME);
                Node.Mapping body = (Node.Mapping) b.value();
                out.add(new Field("volume", list.name(), new Node.Mapping(List.of(v.name()), body.fields(),
                        body.line()), v.line()));
            }
            return out;
        }
        if (!(list.value() instanceof Node.Sequence seq)
                || !seq.items().stream().allMatch(i -> i instanceof Node.Mapping)) {
            // not a list of objects: kept under its canonical key, so the mapper names what it found
            return List.of(new Field(canonical(list.name()), list.name(), list.value(), list.line()));
        }
        List<Field> out = new ArrayList<>();
        for (Node item : seq.items()) {
            Node.Mapping m = (Node.Mapping) item;
            out.add(switch (list.name()) {
                case "Artifacts" -> block("artifact", list.name(), m, ARTIFACT);
                case "Templates" -> block("template", list.name(), m, TEMPLATE);
                case "VolumeMounts" -> block("volume_mount", list.name(), m, VOLUME_MOUNT);
                default -> network(list.name(), m);
            });
        }
        return out;
    }

    private static String canonical(String name) {
        return switch (name) {
            case "Artifacts" -> "artifact";
            case "Templates" -> "template";
            case "Volumes" -> "volume";
            case "VolumeMounts" -> "volume_mount";
            default -> "network";
        };
    }

    private static Field block(String canonical, String written, Node.Mapping m, Map<String, String> keys) {
        List<Field> fields = new ArrayList<>();
        for (Field f : m.fields()) {
            String key = keys.get(f.name());
            if (key == null && unset(f)) {
                continue;
            }
            if (key != null && f.value() instanceof Node.Scalar s && "".equals(s.value())) {
                continue; // Nomad's "" is unset: the jobspec's default
            }
            if (key != null && !VERBATIM.contains(f.name()) && f.value() instanceof Node.Scalar s
                    && Boolean.FALSE.equals(s.value()) && !key.equals("env") && !key.equals("error_on_missing_key")) {
                continue;
            }
            if ((f.name().equals("Wait") || f.name().equals("ChangeScript")) && f.value() instanceof Node.Mapping w) {
                // {"Min": ns, "Max": ns} to wait { min max }; {"Command": ..., "Timeout": ns} to change_script
                Map<String, String> names = f.name().equals("Wait") ? WAIT : CHANGE_SCRIPT;
                List<Field> inner = new ArrayList<>();
                for (Field x : w.fields()) {
                    String k = names.get(x.name());
                    if (k != null || !unset(x)) {
                        inner.add(new Field(k, x.name(), x.value(), x.line()));
                    }
                }
                fields.add(new Field(key, f.name(), new Node.Mapping(List.of(), inner, w.line()), f.line()));
                continue;
            }
            fields.add(new Field(key, f.name(), f.value(), f.line()));
        }
        return new Field(canonical, written, new Node.Mapping(List.of(), fields, m.line()), m.line());
    }

    private static Field network(String written, Node.Mapping m) {
        List<Field> fields = new ArrayList<>();
        for (Field f : m.fields()) {
            if (f.name().equals("ReservedPorts") || f.name().equals("DynamicPorts")) {
                fields.addAll(ports(f, f.name().equals("ReservedPorts")));
                continue;
            }
            String key = NETWORK.get(f.name());
            if ((key == null || f.value() instanceof Node.Scalar s && "".equals(s.value())) && unset(f)) {
                continue;
            }
            fields.add(new Field(key, f.name(), f.value(), f.line()));
        }
        return new Field("network", written, new Node.Mapping(List.of(), fields, m.line()), m.line());
    }

    /** {@code [{"Label": "http", "Value": 8080, "To": 0}]} to {@code port "http" { static = 8080 }}. */
    private static List<Field> ports(Field list, boolean reserved) {
        if (!(list.value() instanceof Node.Sequence seq)) {
            return unset(list) ? List.of() : List.of(new Field(null, list.name(), list.value(), list.line()));
        }
        List<Field> out = new ArrayList<>();
        for (Node item : seq.items()) {
            if (!(item instanceof Node.Mapping m)) {
                out.add(new Field(null, list.name(), item, item.line()));
                continue;
            }
            String label = null;
            List<Field> fields = new ArrayList<>();
            for (Field f : m.fields()) {
                if (f.name().equals("Label") && f.value() instanceof Node.Scalar s && s.value() instanceof String v) {
                    label = v;
                } else if (f.name().equals("Value")) {
                    // a reserved port's value is its static port; a dynamic port's is what the scheduler gave it
                    if (reserved) {
                        fields.add(new Field("static", f.name(), f.value(), f.line()));
                    }
                } else if (PORT.containsKey(f.name())) {
                    if (!unset(f)) {
                        fields.add(new Field(PORT.get(f.name()), f.name(), f.value(), f.line()));
                    }
                } else if (!unset(f)) {
                    fields.add(new Field(null, f.name(), f.value(), f.line()));
                }
            }
            List<String> labels = label == null ? List.of() : List.of(label);
            out.add(new Field("port", list.name(), new Node.Mapping(labels, fields, m.line()), m.line()));
        }
        return out;
    }

    /** Nomad's "unset": "", zero, false, an empty list or object. */
    private static boolean unset(Field f) {
        if (f.value() instanceof Node.Scalar s) {
            return "".equals(s.value()) || Boolean.FALSE.equals(s.value())
                    || (s.value() instanceof Number n && n.doubleValue() == 0);
        }
        if (f.value() instanceof Node.Sequence q) {
            return q.items().isEmpty();
        }
        return f.value() instanceof Node.Mapping m && m.fields().isEmpty();
    }
}
