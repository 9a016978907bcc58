package io.drover.core.spec;

/**
 * A task's {@code resources} block, with Nomad's defaults (cpu 100 MHz, memory 300 MB): handed to the driver as
 * {@code TaskResources} (the process drivers enforce cpu, memory and memory_max with cgroups,
 * docs/process-supervision.md) and what a task reads as {@code NOMAD_CPU_LIMIT}, {@code NOMAD_MEMORY_LIMIT} ...
 *
 * @param cores 0 when unset (then {@code NOMAD_CPU_CORES} is not set)
 * @param memoryMaxMb 0 when unset, -1 for no limit above {@code memoryMb} (Nomad's {@code memory_max = -1}); {@code NOMAD_MEMORY_MAX_LIMIT} is set only when positive
 * @param diskMb Nomad's deprecated {@code disk} (MB), 0 when unset: accepted and kept ({@code DiskMB} in the job's
 *     JSON), as Nomad keeps it; nothing reserves or limits disk
 */
public record Resources(int cpu, int cores, int memoryMb, int memoryMaxMb, int diskMb) {
    public static final Resources DEFAULT = new Resources(100, 0, 300, 0, 0);

    /** Resources without {@code disk}. */
    public Resources(int cpu, int cores, int memoryMb, int memoryMaxMb) {
        this(cpu, cores, memoryMb, memoryMaxMb, 0);
    }
}
