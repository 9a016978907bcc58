package io.drover.core.gc;

import io.drover.core.config.ClientConfig;

/**
 * The client's GC limits.
 *
 * @param diskThreshold percent of the data_dir's file system in use above which terminal allocations go
 * @param inodeThreshold percent of its inodes in use above which terminal allocations go
 */
public record GcLimits(int maxAllocs, int diskThreshold, int inodeThreshold) {
    public static GcLimits of(ClientConfig c) {
        return new GcLimits(c.gcMaxAllocs(), c.gcDiskUsageThreshold(), c.gcInodeUsageThreshold());
    }
}
