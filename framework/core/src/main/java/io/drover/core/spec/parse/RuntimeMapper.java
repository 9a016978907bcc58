package io.drover.core.spec.parse;

import io.drover.core.spec.Artifact;
import io.drover.core.spec.Resources;
import io.drover.core.spec.TaskRuntime;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Maps what a task needs at run time — {@code meta}, {@code resources}, {@code artifact}, {@code template} and
 * {@code volume_mount} blocks — for
 * {@link JobMapper}. Pure; every problem is recorded in the {@link Problems}.
 */
final class RuntimeMapper {
    static final List<String> RESOURCES_KEYS = List.of("cpu", "cores", "memory", "memory_max", "disk");

    private RuntimeMapper() {}

    /** The {@code meta} block of a job, group or task; empty when absent or bad (the problem recorded). */
    static Map<String, String> meta(MapReader r, Problems p) {
        return p.read(() -> r.stringMap("meta"), Map.of());
    }

    /**
     * @param name the task's name (its own directory is not an escape of a path)
     * @param volumes the names of the group's volumes, what a {@code volume_mount} may name (null: none)
     */
    static TaskRuntime task(MapReader r, String name, java.util.Set<String> volumes, Problems p) {
        Map<String, String> meta = meta(r, p);
        Resources resources = resources(r.child("resources", RESOURCES_KEYS, List.of(), p), p);
        List<Artifact> artifacts = new ArrayList<>();
        for (Field f : r.all("artifact")) {
            Artifact a = ArtifactMapper.artifact(f, r, name, p);
            if (a != null) {
                artifacts.add(a);
            }
        }
        List<io.drover.core.spec.Template> templates = new ArrayList<>();
        for (Field f : r.all("template")) {
            io.drover.core.spec.Template t = TemplateMapper.template(f, r, name, p);
            if (t != null) {
                templates.add(t);
            }
        }
        if (templates.stream().map(io.drover.core.spec.Template::once).distinct().count() > 1) {
            // Nomad renders a task's templates with one consul-template runner, in once mode or not
            p.add(new io.drover.core.spec.parse.tree.TreeProblem(r.line("template"), r.keyPath("template"),
                    "once must be the same for every template of the task (Nomad: \"All templates should have same "
                            + "Once value\")"));
        }
        return new TaskRuntime(meta, resources, artifacts, templates, null, VolumeMapper.mounts(r, volumes, p));
    }

    private static Resources resources(MapReader r, Problems p) {
        if (r == null) {
            return Resources.DEFAULT;
        }
        Resources d = Resources.DEFAULT;
        int cpu = (int) (long) p.read(() -> r.integer("cpu", d.cpu(), 0, Integer.MAX_VALUE), (long) d.cpu());
        int cores = (int) (long) p.read(() -> r.integer("cores", 0, 0, Integer.MAX_VALUE), 0L);
        int memory = (int) (long) p.read(() -> r.integer("memory", d.memoryMb(), 0, Integer.MAX_VALUE),
                (long) d.memoryMb());
        int memoryMax = (int) (long) p.read(() -> r.integer("memory_max", 0, -1, Integer.MAX_VALUE), 0L);
        int disk = (int) (long) p.read(() -> r.integer("disk", 0, 0, Integer.MAX_VALUE), 0L);
        return new Resources(cpu, cores, memory, memoryMax, disk);
    }
}
