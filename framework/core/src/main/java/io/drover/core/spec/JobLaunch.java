package io.drover.core.spec;

/**
 * How a job is launched: a {@code periodic} or {@code parameterized} job is a parent that runs nothing itself and
 * launches child jobs (Nomad's {@code Periodic}, {@code ParameterizedJob}, {@code Dispatched}). {@link #NONE} for
 * every other job. A job with both blocks is, as in Nomad, a parameterized job whose schedule does not run: each
 * job dispatched from it keeps the {@code periodic} block and is a periodic parent of its own, launching children
 * on that schedule ({@code <job>/dispatch-<...>/periodic-<unix>}).
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

    /**
     * Whether this job launches children on its schedule (Nomad's {@code IsPeriodicActive}, but for the stop):
     * periodic, enabled, and not a parameterized job that awaits dispatches.
     */
    public boolean periodicActive() {
        return periodic != null && periodic.enabled() && !(parameterized != null && !dispatched);
    }
}
