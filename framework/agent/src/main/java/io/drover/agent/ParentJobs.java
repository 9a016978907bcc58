package io.drover.agent;

import io.drover.core.spec.ChildJobs;
import io.drover.core.spec.Job;
import io.drover.core.spec.Periodic;
import io.drover.driver.api.Timers;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's periodic and parameterized jobs: keeps them on disk ({@link ParentJobStore}) as the registry
 * changes them ({@link JobRegistry.ParentListener}), launches periodic children on schedule
 * ({@link PeriodicLauncher}), on demand ({@link #force}) and dispatches parameterized ones ({@link #dispatch}).
 * A child is an ordinary job of the registry with {@code ParentID} set; its allocations make it durable.
 *
 * <p>Threads: {@link #changed} runs under the registry's lock on the thread that changed a parent (an API thread);
 * {@link #dispatch} and {@link #force} on an API thread; scheduled launches on the one {@code drover-periodic}
 * thread. Each writes the parent file itself (blocking, a few milliseconds).
 */
public final class ParentJobs implements JobRegistry.ParentListener, PeriodicLauncher.Target, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ParentJobs.class);

    private final JobRegistry jobs;
    private final ParentJobStore store;
    private final Timers timers;
    private final ExecutorService launchThread;
    private final PeriodicLauncher launcher;
    /** Per parent job id: its last launch (unix nanos; the registration time before the first). */
    private final Map<String, Long> lastLaunch = new ConcurrentHashMap<>();

    /** A dispatch or forced launch that placed its child: the child's registration. */
    public record Launched(Job child, JobRegistry.Registration registration) {}

    ParentJobs(JobRegistry jobs, java.nio.file.Path dataDir, Timers timers) {
        this.jobs = jobs;
        this.store = new ParentJobStore(dataDir);
        this.timers = timers;
        this.launchThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "drover-periodic");
            t.setDaemon(true);
            return t;
        });
        this.launcher = new PeriodicLauncher(timers, launchThread, this);
    }

    /**
     * Puts the recorded parents back into the registry (after its {@link JobRegistry#restore}) and resumes their
     * schedules, then listens to the registry. Agent start, before the API serves.
     *
     * @throws IOException when the parent file cannot be read
     */
    void restore() throws IOException {
        for (ParentJobStore.Saved s : store.load()) {
            jobs.restoreParent(s.entry());
            long last = Math.max(s.lastLaunch(), newestChildLaunch(s.job().id()));
            lastLaunch.put(s.job().id(), last);
            if (!s.stopped()) {
                launcher.track(s.job(), Instant.ofEpochSecond(0, last), true);
            }
        }
        jobs.parentListener(this);
    }

    /** The launch time of the newest periodic child the registry restored (unix nanos), 0 when none. */
    private long newestChildLaunch(String parentId) {
        long newest = 0;
        String prefix = parentId + Periodic.CHILD_SUFFIX;
        for (JobRegistry.Entry child : jobs.children(parentId)) {
            String id = child.job().id();
            if (id.startsWith(prefix)) {
                try {
                    newest = Math.max(newest, Long.parseLong(id.substring(prefix.length())) * 1_000_000_000L);
                } catch (NumberFormatException e) {
                    // a child id not of the periodic form (not launched by a schedule): no launch time
                }
            }
        }
        return newest;
    }

    @Override
    public void changed(String jobId, Optional<JobRegistry.Entry> entry) {
        if (entry.isEmpty() || !entry.get().job().launch().parent()) {
            lastLaunch.remove(jobId);
            launcher.untrack(jobId);
        } else {
            JobRegistry.Entry e = entry.get();
            lastLaunch.putIfAbsent(jobId, nanos(timers.now())); // Nomad records the registration as the launch
            if (e.stopped()) {
                launcher.untrack(jobId);
            } else {
                launcher.track(e.job(), null, false);
            }
        }
        persist();
    }

    /**
     * Writes every parent the registry holds. Any thread; the snapshot is taken and written under this object's
     * monitor, so a later change is never overwritten by an earlier snapshot written after it. Takes no other lock
     * (the registry's reads are lock-free), so a caller holding the registry's lock cannot deadlock with a launch.
     */
    private synchronized void persist() {
        List<ParentJobStore.Saved> all = new ArrayList<>();
        for (JobRegistry.Entry e : jobs.jobs()) {
            if (e.job().launch().parent()) {
                all.add(ParentJobStore.Saved.of(e, lastLaunch.getOrDefault(e.job().id(), 0L)));
            }
        }
        try {
            store.save(all);
        } catch (IOException e) {
            LOG.error("cannot record the periodic and parameterized jobs in {}: {}; they are kept in memory and "
                    + "written at the next change", store.file(), e.toString());
        }
    }

    /**
     * Dispatches a parameterized job (Nomad's {@code Job.Dispatch}). API thread.
     *
     * @throws DispatchRequest.DispatchException when the job is missing (404) or the request breaks its rules (400)
     * @throws JobRegistry.TooManyTasksException over the client's task limits
     */
    public Launched dispatch(String jobId, DispatchRequest request) throws DispatchRequest.DispatchException {
        JobRegistry.Entry parent = jobs.job(jobId).orElseThrow(() ->
                new DispatchRequest.DispatchException(404, "parameterized job not found"));
        Job child = Dispatches.child(parent, request, timers.now(), Dispatches.random8());
        JobRegistry.Registration reg = jobs.register(child);
        LOG.info("job {}: dispatched {} ({} allocation(s))", jobId, child.id(), reg.placed().size());
        return new Launched(child, reg);
    }

    /**
     * Launches a periodic job's child now (Nomad's {@code periodic force}), whatever its schedule and overlap rule.
     * API thread.
     *
     * @throws DispatchRequest.DispatchException when the job is missing (404) or not periodic (400)
     */
    public Launched force(String jobId) throws DispatchRequest.DispatchException {
        JobRegistry.Entry parent = jobs.job(jobId).orElseThrow(() ->
                new DispatchRequest.DispatchException(404, "job not found"));
        if (parent.job().launch().periodic() == null) {
            throw new DispatchRequest.DispatchException(400, "can't force launch non-periodic job");
        }
        if (parent.job().launch().parameterized() != null && !parent.job().launch().dispatched()) {
            // Nomad tracks no schedule of a parameterized job: its dispatched children are the periodic ones
            throw new DispatchRequest.DispatchException(400, "can't force run non-tracked job \"" + jobId
                    + "\" (default)");
        }
        if (parent.stopped()) {
            throw new DispatchRequest.DispatchException(400, "can't force launch a stopped job");
        }
        Instant at = timers.now();
        Job child = ChildJobs.periodic(parent.job(), at);
        JobRegistry.Registration reg = jobs.register(child);
        recordLaunch(jobId, at);
        return new Launched(child, reg);
    }

    @Override
    public void launch(Job parent, Instant at) {
        try {
            jobs.register(ChildJobs.periodic(parent, at));
        } catch (RuntimeException e) { // over the task limits, or the engine is shutting down
            LOG.warn("job {}: the launch of {} was not placed: {}", parent.id(), at, e.getMessage());
            return;
        }
        recordLaunch(parent.id(), at);
    }

    private void recordLaunch(String jobId, Instant at) {
        lastLaunch.merge(jobId, nanos(at), Math::max);
        persist();
    }

    @Override
    public boolean childRunning(String parentId) {
        return jobs.children(parentId).stream().anyMatch(c -> jobs.status(c).equals("running"));
    }

    /** Whether a periodic job has a launch armed (tests). */
    boolean tracks(String jobId) {
        return launcher.tracks(jobId);
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public void close() {
        launcher.close();
        launchThread.shutdownNow();
    }
}
