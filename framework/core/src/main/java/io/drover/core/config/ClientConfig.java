package io.drover.core.config;

import java.time.Duration;

/**
 * The agent config's {@code client} block, with Nomad's (and Drover's) defaults.
 *
 * @param driverStartTimeout how long a driver may take to start a run before the run is abandoned as a
 *     recoverable start error (Drover's own key; Nomad has no such limit)
 * @param taskLimits {@code max_tasks_per_job} and {@code max_tasks} (Drover's own keys)
 * @param dynamicPorts {@code min_dynamic_port} to {@code max_dynamic_port}
 * @param node this node's name, datacenter, class, pool and meta ({@code node_class}, {@code node_pool},
 *     {@code meta}, and the config's top-level {@code name} and {@code datacenter})
 */
public record ClientConfig(
        Duration gcInterval,
        int gcMaxAllocs,
        int gcDiskUsageThreshold,
        int gcInodeUsageThreshold,
        int gcParallelDestroys,
        GcKillPolicy gcKillPolicy,
        Duration maxKillTimeout,
        Duration recordRetention,
        Duration driverStartTimeout,
        TaskLimits taskLimits,
        PortRange dynamicPorts, NodeConfig node) {

    public ClientConfig {
        dynamicPorts = dynamicPorts == null ? PortRange.DEFAULT : dynamicPorts;
        node = node == null ? NodeConfig.DEFAULTS : node;
    }

    /**
     * Without the dynamic ports and the node's description: Nomad's defaults (ports 20000-32000; host name, dc1,
     * no class, pool default, no meta).
     */
    public ClientConfig(Duration gcInterval, int gcMaxAllocs, int gcDiskUsageThreshold, int gcInodeUsageThreshold,
            int gcParallelDestroys, GcKillPolicy gcKillPolicy, Duration maxKillTimeout, Duration recordRetention,
            Duration driverStartTimeout, TaskLimits taskLimits) {
        this(gcInterval, gcMaxAllocs, gcDiskUsageThreshold, gcInodeUsageThreshold, gcParallelDestroys, gcKillPolicy,
                maxKillTimeout, recordRetention, driverStartTimeout, taskLimits, PortRange.DEFAULT, NodeConfig.DEFAULTS);
    }

    /** The default {@code driver_start_timeout}. */
    public static final Duration DEFAULT_DRIVER_START_TIMEOUT = Duration.ofMinutes(1);

    /** Without {@code driver_start_timeout}: its default. */
    public ClientConfig(Duration gcInterval, int gcMaxAllocs, int gcDiskUsageThreshold, int gcInodeUsageThreshold,
            int gcParallelDestroys, GcKillPolicy gcKillPolicy, Duration maxKillTimeout, Duration recordRetention) {
        this(gcInterval, gcMaxAllocs, gcDiskUsageThreshold, gcInodeUsageThreshold, gcParallelDestroys, gcKillPolicy,
                maxKillTimeout, recordRetention, DEFAULT_DRIVER_START_TIMEOUT);
    }

    /** Without {@code max_tasks_per_job} and {@code max_tasks}: their defaults. */
    public ClientConfig(Duration gcInterval, int gcMaxAllocs, int gcDiskUsageThreshold, int gcInodeUsageThreshold,
            int gcParallelDestroys, GcKillPolicy gcKillPolicy, Duration maxKillTimeout, Duration recordRetention,
            Duration driverStartTimeout) {
        this(gcInterval, gcMaxAllocs, gcDiskUsageThreshold, gcInodeUsageThreshold, gcParallelDestroys, gcKillPolicy,
                maxKillTimeout, recordRetention, driverStartTimeout, TaskLimits.DEFAULTS);
    }

    public static ClientConfig defaults() {
        return new ClientConfig(Duration.ofMinutes(1), 50, 80, 70, 2, GcKillPolicy.PRESERVE_STATES,
                Duration.ofSeconds(30), Duration.ofHours(24), DEFAULT_DRIVER_START_TIMEOUT, TaskLimits.DEFAULTS,
                PortRange.DEFAULT, NodeConfig.DEFAULTS);
    }
}
