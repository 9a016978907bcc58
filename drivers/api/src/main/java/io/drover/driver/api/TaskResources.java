package io.drover.driver.api;

/**
 * What a task's {@code resources} block asks for, as the host hands it to a driver in {@link TaskConfig}. A driver
 * that limits resources (the process drivers do, through cgroups: docs/process-supervision.md) maps them as
 * Nomad's executor does; one that does not may ignore them. Immutable value.
 *
 * @param cpuMhz {@code cpu} in MHz (Nomad's cgroup v1 executor uses it as {@code cpu.shares}); 0: unset
 * @param memoryMb {@code memory} in MiB; 0: unset (no memory limit)
 * @param memoryMaxMb {@code memory_max} in MiB; 0: unset (then {@code memory} is the hard limit), -1: no hard limit
 *     ({@code memory} is only the soft limit), as Nomad's {@code memory_max = -1}
 */
public record TaskResources(int cpuMhz, int memoryMb, int memoryMaxMb) {
    /** Nothing asked: a driver limits nothing (the TCK's tasks, direct callers that predate this record). */
    public static final TaskResources NONE = new TaskResources(0, 0, 0);

    public TaskResources {
        if (cpuMhz < 0 || memoryMb < 0 || memoryMaxMb < -1) {
            throw new IllegalArgumentException("resources: cpu and memory must be ≥ 0 and memory_max ≥ -1, got cpu="
                    + cpuMhz + " memory=" + memoryMb + " memory_max=" + memoryMaxMb);
        }
    }

    /** Whether anything is asked (a driver that limits makes no cgroup for {@link #NONE}). */
    public boolean any() {
        return cpuMhz > 0 || memoryMb > 0;
    }
}
