package io.drover.driver.api;

/**
 * Optional abilities of a driver, read by the host once.
 *
 * @param sendSignals whether {@link TaskDriver#signal} delivers signals other than SIGKILL
 * @param recover whether {@link TaskDriver#recover} can re-attach to tasks of an earlier agent
 * @param mountConfigs whether the driver mounts host volumes into a task ({@link TaskConfig#mounts()}; Nomad's
 *     {@code MountConfigs}): a task with a {@code volume_mount} on a driver without it fails before it starts,
 *     as in Nomad
 */
public record Capabilities(boolean sendSignals, boolean recover, boolean mountConfigs) {
    /** A driver that mounts nothing (Nomad's {@code MountConfigSupportNone}, e.g. raw_exec). */
    public Capabilities(boolean sendSignals, boolean recover) {
        this(sendSignals, recover, false);
    }
}
