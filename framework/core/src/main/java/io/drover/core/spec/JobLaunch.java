package io.drover.core.spec;

/**
 * How a job is launched: a {@code periodic} or {@code parameterized} job is a parent that runs nothing itself and
 * launches child jobs (Nomad's {@code Periodic}, {@code ParameterizedJob}, {@code Dispatched}). {@link #NONE} for
 * every other job.
 *
 * @param periodic the {@code periodic} block, null when none
 * @param parameterized the {@code parameterized} block, null when none (a dispatched child keeps its parent's)
 * @param dispatched whether this job is a dispatched child of a parameterized job
 */
public record JobLaunch(Periodic periodic, Parameterized parameterized, boolean dispatched) {
    public static final JobLaunch NONE = new JobLaunch(null, null, false);

    /** A parent places no allocation: a periodic job, or a parameterized job that is not itself a dispatch. */
    public boolean parent() {
        return periodic != null || (parameterized != null && !dispatched);
    }
}
