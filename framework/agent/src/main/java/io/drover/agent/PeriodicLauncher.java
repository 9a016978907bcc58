package io.drover.agent;

import io.drover.core.spec.Job;
import io.drover.core.spec.Periodic;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Launches periodic jobs' children on schedule (Nomad's periodic dispatcher): one timer per tracked job, at its
 * next launch time ({@link Periodic#next}), never a thread per job. The timer fires on the timer thread and only
 * hands the launch to {@code launches} (one thread, {@code drover-periodic}), which registers the child
 * ({@link Target#launch}) and arms the next timer. A job that prohibits overlap skips a launch while one of its
 * children still runs (Nomad skips it too, and waits for the next time).
 *
 * <p>After an agent restart ({@link #track} with {@code restoring}), the schedule resumes from the last launch: when
 * the launch after it is already past, the job is launched once, now (Nomad's {@code restorePeriodicDispatcher}
 * force-runs it once: no burst of every launch missed), then at its next time.
 *
 * <p>Thread-safe: {@link #track}, {@link #untrack} and the launches are serialised on this object's monitor (held
 * briefly: scheduling a timer never blocks); {@link Target#launch} runs outside it.
 */
final class PeriodicLauncher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicLauncher.class);

    /** What a launch does. Called on the {@code launches} executor. */
    interface Target {
        /** Registers the child of {@code parent} launched at {@code at}. Must not throw. */
        void launch(Job parent, Instant at);

        /** Whether a child of the job is still running (not dead). */
        boolean childRunning(String parentId);
    }

    private record Tracked(Job job, long generation, Timers.Cancellable timer) {}

    private final Timers timers;
    private final Executor launches;
    private final Target target;
    private final Map<String, Tracked> tracked = new HashMap<>();
    private long generations;
    private boolean closed;

    PeriodicLauncher(Timers timers, Executor launches, Target target) {
        this.timers = timers;
        this.launches = launches;
        this.target = target;
    }

    /**
     * Tracks (or re-tracks, after a re-registration) a periodic job: its next launch is armed. Ignored for a job
     * that is not periodic or whose block is disabled (it is untracked).
     *
     * @param lastLaunch the job's last launch (or registration) time; with {@code restoring}, a launch missed
     *     since then is made once, now
     */
    synchronized void track(Job job, Instant lastLaunch, boolean restoring) {
        untrack(job.id());
        Periodic p = job.launch().periodic();
        if (closed || !job.launch().periodicActive()) {
            return; // not periodic, disabled, or a parameterized job (its dispatches are the periodic ones)
        }
        Instant now = timers.now();
        if (restoring && lastLaunch != null) {
            Optional<Instant> missed = p.next(lastLaunch);
            if (missed.isPresent() && missed.get().isBefore(now)) {
                long gen = ++generations;
                tracked.put(job.id(), new Tracked(job, gen, () -> {}));
                LOG.info("job {}: the launch of {} was missed while the agent was down; launching once now",
                        job.id(), missed.get());
                launches.execute(() -> fire(job.id(), gen, now, true));
                return;
            }
        }
        arm(job, now);
    }

    /** Stops tracking a job (stopped, purged, re-registered as another kind). Idempotent. */
    synchronized void untrack(String jobId) {
        Tracked t = tracked.remove(jobId);
        if (t != null) {
            t.timer().cancel();
        }
    }

    /** Whether a job is tracked (it has a launch armed or in progress). */
    synchronized boolean tracks(String jobId) {
        return tracked.containsKey(jobId);
    }

    /** Arms the job's next launch after {@code after}. Under the monitor. */
    private void arm(Job job, Instant after) {
        Optional<Instant> next = job.launch().periodic().next(after);
        if (next.isEmpty()) {
            LOG.info("job {}: no launch left in its schedule", job.id());
            return;
        }
        long gen = ++generations;
        Instant at = next.get();
        Duration delay = Duration.between(timers.now(), at);
        Timers.Cancellable timer = timers.schedule(delay, () -> launches.execute(() -> fire(job.id(), gen, at, false)));
        tracked.put(job.id(), new Tracked(job, gen, timer));
    }

    /** A due launch, on the {@code launches} executor. */
    private void fire(String jobId, long gen, Instant at, boolean forced) {
        Job job;
        synchronized (this) {
            Tracked t = tracked.get(jobId);
            if (t == null || t.generation() != gen || closed) {
                return; // untracked or re-tracked meanwhile
            }
            job = t.job();
        }
        if (job.launch().periodic().prohibitOverlap() && target.childRunning(jobId)) {
            LOG.info("job {}: skipping the launch of {}: a child still runs and the job prohibits overlap", jobId, at);
        } else {
            LOG.info("job {}: launching {}{}", jobId, Periodic.childId(jobId, at), forced ? " (missed launch)" : "");
            target.launch(job, at);
        }
        synchronized (this) {
            Tracked t = tracked.get(jobId);
            if (t != null && t.generation() == gen && !closed) {
                arm(job, at.isAfter(timers.now()) ? at : timers.now());
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        tracked.values().forEach(t -> t.timer().cancel());
        tracked.clear();
    }
}
