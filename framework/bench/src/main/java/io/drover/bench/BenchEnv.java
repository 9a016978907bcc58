package io.drover.bench;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What a bench runs with.
 *
 * @param quick the CI form: smaller counts, the whole suite in under 2 minutes
 * @param pluginDir driver plugin JARs (mock, raw_exec), as an agent loads them
 * @param droverHome the repository root (the {@code drover} launcher and sample-jobs/), or null when unknown
 * @param workDir a scratch directory for data dirs and stores; the bench may leave files in it
 * @param progress progress lines (stderr); figures go in the returned list, not here
 */
public record BenchEnv(boolean quick, Path pluginDir, Path droverHome, Path workDir, PrintStream progress) {

    /** {@code quick} in quick mode, else {@code full}. */
    public int size(int quick, int full) {
        return this.quick ? quick : full;
    }
}
