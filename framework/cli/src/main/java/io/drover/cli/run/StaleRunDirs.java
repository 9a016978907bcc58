package io.drover.cli.run;

import io.drover.core.driver.DriverRegistry;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Temporary data dirs of earlier {@code drover run}s that died without deleting them (SIGKILL, an OOM kill, a
 * crash: a 100,000-task run left 1.6 GB behind): at its start a run finds them in its temp root and reclaims them.
 *
 * <p>A dir is stale only when all of these hold, read without following links: it is a directory named
 * {@code drover-run-*}, owned by this process's user, mode {@code 0700} or, for root, {@code 0711} (as {@link DataDir} makes
 * it, so no other user could have planted or changed anything in it), and its {@link RunDirOwner} names a process that is gone.
 * A dir of a live run, of another user, or without an owner file (older versions) is left alone.
 *
 * <p>{@link #reclaim} first has every driver kill what the dead run's tasks left running there
 * ({@code TaskDriver.killUnrecordedRuns}, one {@code /proc} scan per process-spawning driver and dir: the run owned
 * its tasks, nobody will re-attach them), then renames the dir to {@code drover-run-*.deleting} (atomic: of two
 * runs sweeping at once one wins; a half-deleted dir is finished by the next run even though its owner file went
 * first). Deleting the files is {@link #deleteRenamed}'s job, a blocking walk meant for a background thread.
 */
final class StaleRunDirs {
    private static final Logger LOG = LoggerFactory.getLogger(StaleRunDirs.class);
    static final String DELETING = ".deleting";
    private static final Set<PosixFilePermission> OWNER_ONLY = Set.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private StaleRunDirs() {}

    /**
     * Finds the stale dirs under {@code tmpRoot} (never {@code own}), kills their leftover tasks and renames them
     * for deletion. Blocking (a directory listing and a few {@code /proc} scans), on the calling thread; never
     * throws: a dir it cannot check or rename is left as it is.
     *
     * @param own this run's own temporary dir: its owner is the user a stale dir must belong to
     * @return the renamed dirs, to be deleted by {@link #deleteRenamed}, plus any {@code .deleting} dir of ours
     *     that an earlier sweep did not finish
     */
    static List<Path> reclaim(Path tmpRoot, Path own, DriverRegistry drivers) {
        List<Path> doomed = new ArrayList<>();
        Object uid;
        try {
            uid = Files.getAttribute(own, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return doomed; // no POSIX owner to compare: never guess
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmpRoot, DataDir.PREFIX + "*")) {
            for (Path dir : dirs) {
                if (dir.equals(own) || !ours(dir, uid)) {
                    continue;
                }
                if (dir.getFileName().toString().endsWith(DELETING)) {
                    doomed.add(dir);
                    continue;
                }
                RunDirOwner owner = RunDirOwner.readFrom(dir).orElse(null);
                if (owner == null || owner.alive()) {
                    continue;
                }
                killLeftovers(dir, drivers);
                Path renamed = dir.resolveSibling(dir.getFileName() + DELETING);
                try {
                    Files.move(dir, renamed, StandardCopyOption.ATOMIC_MOVE);
                    doomed.add(renamed);
                    LOG.info("reclaiming {}: its drover run (pid {}) is gone", dir, owner.pid());
                } catch (IOException e) {
                    LOG.debug("cannot rename stale {} (another run sweeps it?): {}", dir, e.toString());
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot list {} for stale drover-run dirs: {}", tmpRoot, e.toString());
        }
        return doomed;
    }

    /**
     * For a run on a temporary data dir: {@link #reclaim} on the calling thread, then the deletion on a daemon
     * thread ({@code drover-run-sweeper}, minimum priority), so that a large stale dir does not delay the jobs. If
     * the run ends first the rest stays, renamed, for the next run. Does nothing for a configured data_dir.
     */
    static void sweep(DataDir data, DriverRegistry drivers) {
        if (!data.temporary()) {
            return;
        }
        Path root = data.path().getParent();
        List<Path> doomed = reclaim(root, data.path(), drivers);
        if (!doomed.isEmpty()) {
            Thread sweeper = new Thread(() -> deleteRenamed(doomed), "drover-run-sweeper");
            sweeper.setDaemon(true);
            sweeper.setPriority(Thread.MIN_PRIORITY);
            sweeper.start();
        }
    }

    /** Deletes the renamed dirs; blocking, meant for a background thread; never throws. */
    static void deleteRenamed(List<Path> doomed) {
        for (Path dir : doomed) {
            try {
                DataDir.deleteTree(dir);
            } catch (IOException | RuntimeException e) {
                LOG.debug("cannot delete stale {}: {}", dir, e.toString());
            }
        }
    }

    private static boolean ours(Path dir, Object uid) {
        try {
            return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                    && uid.equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                    && (Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(OWNER_ONLY)
                            || (Integer.valueOf(0).equals(uid) && Files.getPosixFilePermissions(dir,
                                    LinkOption.NOFOLLOW_LINKS).equals(DataDir.ROOT_MODE)));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void killLeftovers(Path dir, DriverRegistry drivers) {
        Path allocRoot = dir.resolve("alloc");
        for (String name : drivers.names()) {
            drivers.driver(name).ifPresent(d -> {
                try {
                    Set<String> killed = d.killUnrecordedRuns(allocRoot, Set.of());
                    if (!killed.isEmpty()) {
                        LOG.warn("killed {} run(s) a dead drover run left running in {}: {}", killed.size(), dir,
                                killed);
                    }
                } catch (RuntimeException | LinkageError e) {
                    LOG.warn("driver {} could not kill what a dead drover run left in {}: {}", name, dir,
                            e.toString());
                }
            });
        }
    }
}
