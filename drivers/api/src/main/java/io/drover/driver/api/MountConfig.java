package io.drover.driver.api;

/**
 * A host directory a task's run asks to see inside the task (Nomad's {@code drivers.MountConfig}), built by the
 * host from a task's {@code volume_mount} and its group's host {@code volume}. Only a driver whose
 * {@link Capabilities#mountConfigs()} is true is given any; it mounts each before the task runs and must undo it
 * when the run ends (a mount inside the run's own mount namespace goes away with it).
 *
 * @param volume the name of the client host volume (Nomad's {@code RequestName})
 * @param hostPath the host directory, absolute
 * @param taskPath where the task sees it, as the job wrote it (for exec, a path inside the task's chroot); the
 *     driver checks that it stays inside the task and follows no link on the way
 * @param readOnly read-only when the client volume, the group's volume or the mount says so
 * @param propagationMode Nomad's {@code private}, {@code host-to-task} or {@code bidirectional}
 */
public record MountConfig(String volume, String hostPath, String taskPath, boolean readOnly, String propagationMode) {}
