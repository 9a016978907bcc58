package io.drover.core.engine;

import io.drover.core.config.GcKillPolicy;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the engine needs from the agent's config.
 *
 * @param dataDir allocation directories go under {@code dataDir/alloc/<alloc-id>}
 * @param maxKillTimeout caps every task's kill_timeout
 * @param driverStartTimeout how long a driver may take to start a run; then the run is abandoned (a recoverable
 *     start error) and a start that completes later is discarded
 * @param dynamicPorts where dynamic {@code port}s of group networks are taken from
 * @param hostVolumes the node's host volumes by name (client {@code host_volume} blocks), what tasks' volume
 *     mounts resolve against
 * @param services the registry of {@code provider = "nomad"} services; null: the engine makes a local one
 * @param variables Nomad variables the templates read ({@code nomadVar}); null: the engine makes a memory one
 * @param nodeVars what {@code ${attr.<name>}}, {@code ${node.unique.id}}, {@code ${node.datacenter}},
 *     {@code ${node.class}}, {@code ${node.pool}}, {@code ${node.unique.name}}, {@code ${node.region}} and the
 *     node's {@code ${meta.<key>}} resolve to in a task's config, env and artifact sources (Nomad's taskenv node
 *     attributes); a job's own meta wins over the node's. Empty: none (tests, the bench)
 */
public record EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy,
        Duration driverStartTimeout, io.drover.core.config.PortRange dynamicPorts,
        java.util.Map<String, io.drover.core.config.HostVolumeConfig> hostVolumes, ServiceRegistry services,
        io.drover.core.vars.VariableStore variables, java.util.Map<String, String> nodeVars) {

    public EngineConfig {
        dynamicPorts = dynamicPorts == null ? io.drover.core.config.PortRange.DEFAULT : dynamicPorts;
        hostVolumes = hostVolumes == null ? java.util.Map.of() : java.util.Map.copyOf(hostVolumes);
        nodeVars = nodeVars == null ? java.util.Map.of() : java.util.Map.copyOf(nodeVars);
    }

    /** Without node variables. */
    public EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy,
            Duration driverStartTimeout, io.drover.core.config.PortRange dynamicPorts,
            java.util.Map<String, io.drover.core.config.HostVolumeConfig> hostVolumes, ServiceRegistry services,
            io.drover.core.vars.VariableStore variables) {
        this(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, hostVolumes, services, variables,
                null);
    }

    /** The same config with {@code vars} as the node's variables ({@link #nodeVars}). */
    public EngineConfig withNode(java.util.Map<String, String> vars) {
        return new EngineConfig(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, hostVolumes,
                services, variables, vars);
    }

    /** With a memory variables store (made by the engine). */
    public EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy,
            Duration driverStartTimeout, io.drover.core.config.PortRange dynamicPorts,
            java.util.Map<String, io.drover.core.config.HostVolumeConfig> hostVolumes, ServiceRegistry services) {
        this(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, hostVolumes, services, null);
    }

    /** With a local service registry (made by the engine). */
    public EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy,
            Duration driverStartTimeout, io.drover.core.config.PortRange dynamicPorts,
            java.util.Map<String, io.drover.core.config.HostVolumeConfig> hostVolumes) {
        this(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, hostVolumes, null, null);
    }

    /** A node without host volumes, with a local service registry (made by the engine). */
    public EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy,
            Duration driverStartTimeout, io.drover.core.config.PortRange dynamicPorts) {
        this(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, java.util.Map.of(), null, null);
    }

    /** The same config with {@code registry} as its service registry. */
    public EngineConfig withServices(ServiceRegistry registry) {
        return new EngineConfig(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, hostVolumes,
                registry, variables, nodeVars);
    }

    /** The same config with {@code store} as its variables store. */
    public EngineConfig withVariables(io.drover.core.vars.VariableStore store) {
        return new EngineConfig(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, dynamicPorts, hostVolumes,
                services, store, nodeVars);
    }

    /** With Nomad's dynamic port range (20000-32000). */
    public EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy, Duration driverStartTimeout) {
        this(dataDir, maxKillTimeout, killPolicy, driverStartTimeout, io.drover.core.config.PortRange.DEFAULT);
    }

    /** With the default driver start timeout (1m). */
    public EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy) {
        this(dataDir, maxKillTimeout, killPolicy, io.drover.core.config.ClientConfig.DEFAULT_DRIVER_START_TIMEOUT);
    }
}
