package io.drover.core.gc;

/**
 * Why an allocation was garbage collected; its wire name goes into the {@code Garbage Collected} event.
 *
 * <ul>
 *   <li>{@link #MAX_ALLOCS}: a new allocation would have put the client over {@code gc_max_allocs}</li>
 *   <li>{@link #INTERVAL}: the periodic pass found the client over {@code gc_max_allocs} (an allocation that was
 *       still live when the limit was passed has ended since)</li>
 *   <li>{@link #DISK} / {@link #INODES}: the data_dir's file system was over its usage threshold</li>
 *   <li>{@link #MANUAL}: {@code drover system gc} / {@code PUT /v1/system/gc}</li>
 * </ul>
 */
public enum GcReason {
    MAX_ALLOCS("max allocs"),
    INTERVAL("interval"),
    DISK("disk"),
    INODES("inodes"),
    MANUAL("manual");

    private final String wireName;

    GcReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
