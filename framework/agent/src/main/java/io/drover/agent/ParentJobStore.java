package io.drover.agent;

import io.drover.core.spec.Job;
import io.drover.core.store.JobCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The agent's parent jobs on disk ({@code <data_dir>/parent-jobs.json}): periodic and parameterized jobs have no
 * allocation, so the state store's allocation records cannot bring them back after a restart; this file does,
 * with each periodic job's last launch time. Small (one entry per parent job) and rewritten whole at each change:
 * written to a temporary file, synced, renamed over the old one, and the directory synced, so a crash leaves
 * either the old or the new content. Blocking I/O: called on the thread that changes a parent (an API thread at
 * a registration, {@code drover-periodic} at a launch), serialised on this object.
 */
final class ParentJobStore {
    static final String FILE = "parent-jobs.json";

    /**
     * One parent job as recorded.
     *
     * @param lastLaunch unix nanos of the periodic job's last launch (or of its registration, as Nomad records it),
     *     0 for a parameterized job
     */
    record Saved(Job job, int version, long submitTime, long modifyIndex, boolean stopped, long createIndex,
            long jobModifyIndex, long lastLaunch) {
        JobRegistry.Entry entry() {
            return new JobRegistry.Entry(job, version, submitTime, modifyIndex, List.of(), stopped, createIndex,
                    jobModifyIndex);
        }

        static Saved of(JobRegistry.Entry e, long lastLaunch) {
            return new Saved(e.job(), e.version(), e.submitTime(), e.modifyIndex(), e.stopped(), e.createIndex(),
                    e.jobModifyIndex(), lastLaunch);
        }
    }

    /** The file's content. */
    record Content(List<Saved> parents) {
        Content {
            parents = parents == null ? List.of() : List.copyOf(parents);
        }
    }

    private final Path file;

    ParentJobStore(Path dataDir) {
        this.file = dataDir.resolve(FILE);
    }

    Path file() {
        return file;
    }

    /** What the file holds; empty when there is none. @throws IOException when it cannot be read or parsed */
    synchronized List<Saved> load() throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(file + " is not a regular file");
        }
        try {
            return JobCodec.read(Files.readAllBytes(file), Content.class).parents();
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not valid: " + e.getOriginalMessage(), e);
        }
    }

    /** Replaces the file's content durably. */
    synchronized void save(List<Saved> parents) throws IOException {
        io.drover.core.store.DurableFile.replace(file, JobCodec.write(new Content(parents)));
    }
}
