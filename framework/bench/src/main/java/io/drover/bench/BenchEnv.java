package io.drover.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What a bench runs with.
 *
 * @param quick the CI form: smaller counts, the whole suite in under 2 minutes
 * @param pluginDir driver plugin JARs (mock, raw_exec), as an agent loads them
 * @param droverHome the repository root (the {@code drover} launcher and sample-jobs/), or null when unknown
 * @param workDir a scratch directory for data dirs and stores; the bench may leave files in it (a row that needs
 *     an empty one takes it through {@link #freshDir})
 * @param progress progress lines (stderr); figures go in the returned list, not here
 * @param params the {@code --param} settings, already checked against each bench's {@link Bench#params()}
 */
public record BenchEnv(boolean quick, Path pluginDir, Path droverHome, Path workDir, PrintStream progress,
        BenchParams params) {

    /** {@code quick} in quick mode, else {@code full}. */
    public int size(int quick, int full) {
        return this.quick ? quick : full;
    }

    /** The {@code --param} count {@code bench.key}, else {@code otherwise}. */
    public int count(Bench bench, String key, int otherwise) {
        return params.count(bench, key, otherwise);
    }

    /** The {@code --param} flag {@code bench.key}, else {@code otherwise}. */
    public boolean flag(Bench bench, String key, boolean otherwise) {
        return params.flag(bench, key, otherwise);
    }

    /**
     * {@code workDir/name}, emptied of what an earlier run with the same {@code --work-dir} left there, and created:
     * a store or data dir reopened by a second run would restore the first run's allocations (and the store row's
     * writers would extend the first run's versions, which the store refuses). Links are deleted, never followed.
     * Blocking I/O; called by a bench's own thread before it measures.
     */
    public Path freshDir(String name) throws IOException {
        Path dir = workDir.resolve(name);
        if (Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
        return Files.createDirectories(dir);
    }
}
