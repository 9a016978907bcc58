package io.drover.core.engine;

import io.drover.core.service.ServiceRegistration;
import io.drover.core.spec.ClusterFields;
import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocatedResources;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an allocation's snapshot registers: each {@code provider = "nomad"} service of a task whose state is
 * {@code running}, and each group service while the allocation is {@code running}, as Nomad's client registers
 * them (its {@code serviceregistration/nomad} provider): the name interpolated (default {@code <job>-<group>-<task>}
 * or {@code <job>-<group>}), the port of the named label (the host port; {@code address_mode = "alloc"}: the port
 * inside, {@code to}), the address of that port's host IP unless {@code address} names one, the tags interpolated,
 * the ID as Nomad forms it. A terminal allocation registers nothing. Pure; indexes are left 0.
 */
final class ServiceRegistrations {
    /** Where a service names no port, or a number: this node's address (Drover's ports are on the loopback). */
    static final String NODE_ADDRESS = "127.0.0.1";

    private ServiceRegistrations() {}

    /** Whether the allocation's group or one of its tasks declares a Nomad service at all. */
    static boolean declares(AllocationState a) {
        if (a.job() == null) {
            return false;
        }
        TaskGroup g = a.job().group(a.taskGroup()).orElse(null);
        if (g == null) {
            return false;
        }
        if (services(g.cluster()).size() > 0) {
            return true;
        }
        return g.tasks().stream().anyMatch(t -> !services(t.cluster()).isEmpty());
    }

    static List<ServiceRegistration> of(AllocationState a, String nodeId) {
        List<ServiceRegistration> out = new ArrayList<>();
        if (a.terminal() || !declares(a)) {
            return out;
        }
        Job job = a.job();
        TaskGroup group = a.group();
        if (a.clientStatus() == ClientStatus.RUNNING) {
            for (Map<String, Object> s : services(group.cluster())) {
                out.add(registration(a, nodeId, job, group, null, s));
            }
        }
        for (Task t : group.tasks()) {
            TaskState ts = a.taskStates().get(t.name());
            if (ts == null || ts.state() != io.drover.core.state.TaskLifeState.RUNNING) {
                continue;
            }
            for (Map<String, Object> s : services(t.cluster())) {
                out.add(registration(a, nodeId, job, group, t, s));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> services(ClusterFields c) {
        Object v = c.get("Services");
        return v instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    private static ServiceRegistration registration(AllocationState a, String nodeId, Job job, TaskGroup group,
            Task task, Map<String, Object> s) {
        Interpolator vars = new Interpolator(vars(a, job, group, task));
        String defaultName = job.name() + "-" + group.name() + (task != null ? "-" + task.name() : "");
        String name = vars.apply(String.valueOf(s.getOrDefault("Name", defaultName)));
        String label = s.get("PortLabel") instanceof String l ? vars.apply(l) : "";
        String mode = String.valueOf(s.getOrDefault("AddressMode", "auto"));
        String address = NODE_ADDRESS;
        int port = 0;
        if (label.matches("[0-9]+")) {
            port = Integer.parseInt(label);
        } else {
            for (AllocatedResources.PortMapping p : a.resources().ports()) {
                if (p.label().equals(label)) {
                    port = mode.equals("alloc") && p.to() > 0 ? p.to() : p.value();
                    address = p.hostIp() == null || p.hostIp().isEmpty() ? NODE_ADDRESS : p.hostIp();
                }
            }
        }
        if (s.get("Address") instanceof String given && !given.isEmpty()) {
            address = vars.apply(given);
        }
        List<String> tags = new ArrayList<>();
        if (s.get("Tags") instanceof List<?> l) {
            l.forEach(t -> tags.add(vars.apply(String.valueOf(t))));
        }
        String taskName = task != null ? task.name() : "group-" + group.name();
        String id = "_nomad-task-" + a.id() + "-" + taskName + "-" + name + "-" + label;
        return new ServiceRegistration(id, name, job.runtime().namespace(), nodeId, RuntimeEnv.datacenter(job),
                job.id(), a.id(), tags, address, port, 0, 0);
    }

    /** The variables a service's name, tags and address may use: Nomad's runtime and port variables, meta. */
    private static Map<String, String> vars(AllocationState a, Job job, TaskGroup group, Task task) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("NOMAD_ALLOC_ID", a.id());
        v.put("NOMAD_SHORT_ALLOC_ID", a.id().length() > 8 ? a.id().substring(0, 8) : a.id());
        v.put("NOMAD_ALLOC_NAME", a.name());
        v.put("NOMAD_ALLOC_INDEX", String.valueOf(a.index()));
        v.put("NOMAD_JOB_ID", job.id());
        v.put("NOMAD_JOB_NAME", job.name());
        v.put("NOMAD_GROUP_NAME", group.name());
        v.put("NOMAD_DC", RuntimeEnv.datacenter(job));
        v.put("NOMAD_REGION", job.runtime().region());
        v.put("NOMAD_NAMESPACE", job.runtime().namespace());
        v.put("JOB", job.name());
        v.put("TASKGROUP", group.name());
        v.put("BASE", job.name() + "-" + group.name() + (task != null ? "-" + task.name() : ""));
        Map<String, String> meta = new LinkedHashMap<>(job.runtime().meta());
        meta.putAll(group.runtime().meta());
        if (task != null) {
            v.put("NOMAD_TASK_NAME", task.name());
            v.put("TASK", task.name());
            meta.putAll(task.runtime().meta());
        }
        meta.forEach((k, val) -> {
            v.put("NOMAD_META_" + k, val);
            v.put("meta." + k, val);
        });
        v.putAll(RuntimeEnv.ports(a.resources()));
        return v;
    }
}
