package io.drover.core.gc;

/** What started a GC pass; decides the reason given to allocations collected to enforce gc_max_allocs. */
public enum GcPass {
    /** Before placing new allocations (Nomad's {@code MakeRoomFor}). */
    PLACEMENT(GcReason.MAX_ALLOCS),
    /** Every {@code gc_interval}. */
    INTERVAL(GcReason.INTERVAL),
    /** {@code drover system gc}: every terminal allocation goes. */
    MANUAL(GcReason.MANUAL);

    private final GcReason countReason;

    GcPass(GcReason countReason) {
        this.countReason = countReason;
    }

    /** The reason of an allocation collected by this pass to keep the count within gc_max_allocs. */
    public GcReason countReason() {
        return countReason;
    }
}
