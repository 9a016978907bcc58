package io.drover.core.config;

/**
 * One {@code client { host_volume "NAME" { path, read_only } }} block (Nomad's {@code ClientHostVolumeConfig}): a
 * directory of this machine that a group's {@code volume { type = "host", source = "NAME" }} may mount into its
 * tasks. Checked at agent start: an absolute path to an existing directory.
 *
 * @param name the block's label, what a group volume's {@code source} names
 * @param path the host directory, absolute
 * @param readOnly every mount of it is read-only (a group that asks read-write is not placed, as in Nomad)
 */
public record HostVolumeConfig(String name, String path, boolean readOnly) {}
