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
}
