package io.drover.core.spec;

/**
 * A group's {@code volume "NAME" { ... }} block (Nomad's {@code VolumeRequest}). Only {@code type = "host"} is
 * accepted (a CSI volume is refused naming CSI): {@code source} names one of the client's {@code host_volume}s.
 *
 * @param name the block's label, what a task's {@code volume_mount { volume }} names
 * @param type {@code "host"}
 * @param source the client host volume's name (with {@code per_alloc}, followed by the allocation's index)
 * @param readOnly the group asks a read-only mount
 * @param perAlloc whether the source is {@code source[<alloc index>]}
 * @param sticky Nomad's {@code sticky} (dynamic host volumes only: a static one with it is not placed)
 * @param accessMode Nomad's {@code access_mode}, "" when unset
 * @param attachmentMode Nomad's {@code attachment_mode}, "" when unset
 */
public record VolumeRequest(String name, String type, String source, boolean readOnly, boolean perAlloc,
        boolean sticky, String accessMode, String attachmentMode) {
    public static final String HOST = "host";

    public VolumeRequest {
        accessMode = accessMode == null ? "" : accessMode;
        attachmentMode = attachmentMode == null ? "" : attachmentMode;
    }

    /** The client host volume an allocation of index {@code allocIndex} uses: Nomad's {@code VolumeID}. */
    public String source(int allocIndex) {
        return perAlloc ? source + "[" + allocIndex + "]" : source;
    }
}
