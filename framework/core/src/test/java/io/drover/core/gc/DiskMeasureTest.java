package io.drover.core.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real disk and inode probe, and the size of an allocation directory. */
class DiskMeasureTest {
    @TempDir
    Path dir;

    @Test
    void theProbeReadsBytesAndInodesOfTheDataDirsFileSystem() {
        DiskUsage u = new FileSystemProbe().usage(dir);

        assertThat(u.totalBytes()).isPositive();
        assertThat(u.usedBytes()).isBetween(0L, u.totalBytes());
        assertThat(u.usedInodes()).isBetween(0L, u.totalInodes());
    }

    @Test
    void aDirectorysUsageCountsFileBytesAndEveryEntry() throws Exception {
        Path alloc = Files.createDirectories(dir.resolve("a").resolve("alloc").resolve("logs"));
        Files.writeString(alloc.resolve("t.stdout.0"), "12345");
        Files.writeString(alloc.resolve("t.stderr.0"), "123");

        assertThat(DirUsage.of(dir.resolve("a"))).isEqualTo(new DirUsage(8, 5));
        assertThat(DirUsage.of(dir.resolve("missing"))).isEqualTo(DirUsage.NONE);
    }
}
