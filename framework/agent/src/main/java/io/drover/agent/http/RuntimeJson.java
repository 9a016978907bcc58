package io.drover.agent.http;

import io.drover.core.spec.Artifact;
import io.drover.core.spec.Network;
import io.drover.core.spec.Port;
import io.drover.core.spec.Template;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run-time blocks of a job in Nomad's API JSON shape, as {@link JobJson} writes a job: a task's
 * {@code Artifacts} and {@code Templates}, a group's {@code Networks}, and {@code Meta} on job, group and task —
 * the names and units Nomad's Go api client reads (durations in nanoseconds, perms as an octal string), and what
 * the job JSON reader takes back ({@code JsonRuntimeShape}). Pure.
 */
final class RuntimeJson {
    private RuntimeJson() {}

    static List<Map<String, Object>> artifacts(List<Artifact> artifacts) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Artifact a : artifacts) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("GetterSource", a.source());
            m.put("GetterOptions", new LinkedHashMap<>(a.options()));
            m.put("GetterHeaders", new LinkedHashMap<>(a.headers()));
            m.put("GetterMode", a.mode().wireName());
            m.put("RelativeDest", a.destination());
            out.add(m);
        }
        return out;
    }

    static List<Map<String, Object>> templates(List<Template> templates) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Template t : templates) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("SourcePath", t.source() == null ? "" : t.source());
            m.put("DestPath", t.destination());
            m.put("EmbeddedTmpl", t.data() == null ? "" : t.data());
            m.put("ChangeMode", t.changeMode());
            m.put("ChangeSignal", t.changeSignal() == null ? "" : t.changeSignal());
            m.put("Splay", nanos(t.splay()));
            m.put("Perms", String.format("%04o", t.perms()));
            m.put("LeftDelim", t.leftDelimiter());
            m.put("RightDelim", t.rightDelimiter());
            m.put("Envvars", t.env());
            m.put("ErrMissingKey", t.errorOnMissingKey());
            if (t.waitMin().isZero() && t.waitMax().isZero()) {
                m.put("Wait", null);
            } else {
                Map<String, Object> w = new LinkedHashMap<>();
                w.put("Min", nanos(t.waitMin()));
                w.put("Max", nanos(t.waitMax()));
                m.put("Wait", w);
            }
            m.put("Uid", t.uid());
            m.put("Gid", t.gid());
            m.put("Once", t.once());
            if (t.changeScript() == null) {
                m.put("ChangeScript", null);
            } else {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("Command", t.changeScript().command());
                c.put("Args", t.changeScript().args());
                c.put("Timeout", nanos(t.changeScript().timeout()));
                c.put("FailOnError", t.changeScript().failOnError());
                m.put("ChangeScript", c);
            }
            out.add(m);
        }
        return out;
    }

    /** A group's network, or none (an empty list, as Nomad writes a group without one). */
    static List<Map<String, Object>> networks(Network n) {
        if (n == null || (n.ports().isEmpty() && n.equals(Network.NONE))) {
            return List.of();
        }
        List<Map<String, Object>> reserved = new ArrayList<>();
        List<Map<String, Object>> dynamic = new ArrayList<>();
        for (Port p : n.ports()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Label", p.label());
            m.put("Value", p.staticPort());
            m.put("To", p.to());
            m.put("HostNetwork", "default");
            (p.staticPort() > 0 ? reserved : dynamic).add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Mode", n.mode());
        m.put("ReservedPorts", reserved);
        m.put("DynamicPorts", dynamic);
        return List.of(m);
    }

    private static Long nanos(Duration d) {
        return d == null ? null : d.toNanos();
    }

    /** A group's {@code Volumes}, Nomad's {@code VolumeRequest}s by name; null when none (Nomad's unset). */
    static Map<String, Object> volumes(Map<String, io.drover.core.spec.VolumeRequest> volumes) {
        if (volumes.isEmpty()) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        volumes.forEach((name, v) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Name", v.name());
            m.put("Type", v.type());
            m.put("Source", v.source());
            m.put("ReadOnly", v.readOnly());
            m.put("Sticky", v.sticky());
            m.put("AccessMode", v.accessMode());
            m.put("AttachmentMode", v.attachmentMode());
            m.put("MountOptions", null);
            m.put("PerAlloc", v.perAlloc());
            out.put(name, m);
        });
        return out;
    }

    /** A task's {@code VolumeMounts}, Nomad's {@code VolumeMount}s; null when none. */
    static List<Map<String, Object>> volumeMounts(List<io.drover.core.spec.VolumeMount> mounts) {
        if (mounts.isEmpty()) {
            return null;
        }
        return mounts.stream().map(v -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Volume", v.volume());
            m.put("Destination", v.destination());
            m.put("ReadOnly", v.readOnly());
            m.put("PropagationMode", v.propagationMode());
            m.put("SELinuxLabel", v.selinuxLabel());
            return m;
        }).toList();
    }
}
