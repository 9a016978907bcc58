package io.drover.core.gc;

import java.nio.file.Path;

/** Measures the file system that holds data_dir. Called on the GC thread only; may do blocking I/O. */
@FunctionalInterface
public interface DiskProbe {
    /** Usage of the file system holding {@code dir}; {@link DiskUsage#UNKNOWN} (or a zero total) when unknown. */
    DiskUsage usage(Path dir);
}
