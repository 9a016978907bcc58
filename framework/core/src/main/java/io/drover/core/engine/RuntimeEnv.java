package io.drover.core.engine;

import io.drover.core.spec.Job;
import io.drover.core.spec.Resources;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocatedResources;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Nomad's runtime variables of one task (client/taskenv): the allocation's identity, the job's region, namespace
 * and datacenter, the task's resources, its directories and its merged {@code meta} (task over group over job) as
 * {@code NOMAD_META_<key>} and {@code NOMAD_META_<KEY>}. Pure.
 */
final class RuntimeEnv {
    /** Where a job names no datacenter: the default of a Nomad agent. */
    static final String DEFAULT_DC = "dc1";

    private RuntimeEnv() {}

    static Map<String, String> of(Job job, TaskGroup group, Task task, String allocId, String allocName, int index,
            AllocDirs dirs, TaskPaths paths) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NOMAD_ALLOC_ID", allocId);
        env.put("NOMAD_SHORT_ALLOC_ID", allocId.length() > 8 ? allocId.substring(0, 8) : allocId);
        env.put("NOMAD_ALLOC_NAME", allocName);
        env.put("NOMAD_ALLOC_INDEX", String.valueOf(index));
        env.put("NOMAD_JOB_ID", job.id());
        env.put("NOMAD_JOB_NAME", job.name());
        if (!job.runtime().parentId().isEmpty()) {
            env.put("NOMAD_JOB_PARENT_ID", job.runtime().parentId());
        }
        env.put("NOMAD_GROUP_NAME", group.name());
        env.put("NOMAD_TASK_NAME", task.name());
        env.put("NOMAD_DC", datacenter(job));
        env.put("NOMAD_REGION", job.runtime().region());
        env.put("NOMAD_NAMESPACE", job.runtime().namespace());
        Resources res = task.runtime().resources();
        env.put("NOMAD_CPU_LIMIT", String.valueOf(res.cpu()));
        env.put("NOMAD_MEMORY_LIMIT", String.valueOf(res.memoryMb()));
        if (res.memoryMaxMb() > 0) {
            env.put("NOMAD_MEMORY_MAX_LIMIT", String.valueOf(res.memoryMaxMb()));
        }
        env.put("NOMAD_ALLOC_DIR", dirs.shared().toString());
        env.put("NOMAD_TASK_DIR", paths.local().toString());
        env.put("NOMAD_SECRETS_DIR", paths.secrets().toString());
        meta(job, group, task).forEach((k, v) -> {
            env.put("NOMAD_META_" + k, v);
            env.put("NOMAD_META_" + k.toUpperCase(Locale.ROOT), v);
        });
        return env;
    }

    /**
     * Nomad's port variables of each port label: {@code NOMAD_PORT_<l>} (the port the task uses: {@code to} when
     * set, else the host port), {@code NOMAD_IP_<l>}, {@code NOMAD_ADDR_<l>} (ip:host port),
     * {@code NOMAD_HOST_PORT_<l>}, {@code NOMAD_HOST_IP_<l>}, {@code NOMAD_HOST_ADDR_<l>},
     * {@code NOMAD_ALLOC_PORT_<l>}, {@code NOMAD_ALLOC_IP_<l>}, {@code NOMAD_ALLOC_ADDR_<l>}.
     */
    static Map<String, String> ports(AllocatedResources resources) {
        Map<String, String> env = new LinkedHashMap<>();
        for (AllocatedResources.PortMapping p : resources.ports()) {
            String l = p.label();
            String host = String.valueOf(p.value());
            String inside = String.valueOf(p.to() > 0 ? p.to() : p.value());
            env.put("NOMAD_PORT_" + l, inside);
            env.put("NOMAD_IP_" + l, p.hostIp());
            env.put("NOMAD_ADDR_" + l, p.hostIp() + ":" + host);
            env.put("NOMAD_HOST_PORT_" + l, host);
            env.put("NOMAD_HOST_IP_" + l, p.hostIp());
            env.put("NOMAD_HOST_ADDR_" + l, p.hostIp() + ":" + host);
            env.put("NOMAD_ALLOC_PORT_" + l, inside);
            env.put("NOMAD_ALLOC_IP_" + l, p.hostIp());
            env.put("NOMAD_ALLOC_ADDR_" + l, p.hostIp() + ":" + inside);
        }
        return env;
    }

    /** The task's meta: the job's, overridden by the group's, overridden by the task's (Nomad's merge). */
    static Map<String, String> meta(Job job, TaskGroup group, Task task) {
        Map<String, String> meta = new LinkedHashMap<>(job.runtime().meta());
        meta.putAll(group.runtime().meta());
        meta.putAll(task.runtime().meta());
        return meta;
    }

    /**
     * The datacenter of the node the allocation runs on: Drover's one node is in the job's first datacenter (a
     * Nomad job is placed on a node of one of them), {@value #DEFAULT_DC} when the job names none or a wildcard.
     */
    static String datacenter(Job job) {
        return job.datacenters().stream().filter(dc -> !dc.contains("*")).findFirst().orElse(DEFAULT_DC);
    }
}
