package io.drover.core.gc;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Bytes and inodes an allocation directory holds (what destroying it frees). Blocking I/O: GC thread only.
 *
 * @param bytes sizes of its regular files
 * @param inodes files and directories, itself included
 */
record DirUsage(long bytes, long inodes) {
    static final DirUsage NONE = new DirUsage(0, 0);

    /** {@link #NONE} when it does not exist or cannot be read. */
    static DirUsage of(Path dir) {
        long[] sum = new long[2];
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    sum[1]++;
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    sum[1]++;
                    if (attrs.isRegularFile()) {
                        sum[0] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            return NONE;
        }
        return new DirUsage(sum[0], sum[1]);
    }
}
