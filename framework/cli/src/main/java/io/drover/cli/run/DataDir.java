package io.drover.cli.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@code drover run}'s data directory: the config's {@code data_dir} (created if missing, kept), or a temporary
 * directory ({@code drover-run-*} under {@code java.io.tmpdir}, its owner recorded in it: {@link RunDirOwner}) that
 * {@link #close()} deletes with everything in it. Its mode is 0700, or 0711 when the run is root's: then tasks run
 * as other users (exec and java as {@code nobody}) and a java task's {@code class_path = "${NOMAD_ALLOC_DIR}"} is a
 * host path under this dir, which the JVM can open only if it may pass through (Nomad makes its alloc dir 0711 for
 * the same reason, and its {@code alloc} folder is 0711 as well); nobody else may list or change them. A run killed before it could delete
 * its dir leaves it to the next run, which sweeps it ({@link StaleRunDirs}).
 */
final class DataDir implements AutoCloseable {
    private final Path path;
    private final boolean temporary;

    private DataDir(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** @param configured the config's data_dir, null for a temporary one */
    static DataDir open(Path configured) throws IOException {
        if (configured != null) {
            return new DataDir(Files.createDirectories(configured), false);
        }
        Path dir = Files.createTempDirectory(PREFIX);
        if (Integer.valueOf(0).equals(Files.getAttribute(dir, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS))) {
            Files.setPosixFilePermissions(dir, ROOT_MODE);
            Path alloc = Files.createDirectory(dir.resolve("alloc")); // nobody else lists the allocation ids
            Files.setPosixFilePermissions(alloc, ROOT_MODE);
        }
        RunDirOwner.current().writeTo(dir);
        return new DataDir(dir, true);
    }

    /** A root run's temporary dir: rwx--x--x (see the class comment). */
    static final java.util.Set<java.nio.file.attribute.PosixFilePermission> ROOT_MODE =
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x");

    /** Name prefix of temporary data dirs. */
    static final String PREFIX = "drover-run-";

    boolean temporary() {
        return temporary;
    }

    Path path() {
        return path;
    }

    /**
     * Deletes a temporary directory (best effort: a file a task still holds open may stay). Idempotent. Deleting
     * is disk-bound (some 2 ms per directory here: a 5,000-task run has 20,000), so it does not hold the exit: the
     * dir is renamed {@code *.deleting} at once, deleted here for at most {@link #DELETE_BUDGET_MILLIS}, and what
     * is left is handed to a detached {@code rm -rf} that outlives this JVM (and, should that fail, to the next
     * run's sweep, {@link StaleRunDirs}).
     */
    @Override
    public void close() {
        if (!temporary || !Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path doomed = path.resolveSibling(path.getFileName() + StaleRunDirs.DELETING);
        try {
            Files.move(path, doomed, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            doomed = path;
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(DELETE_BUDGET_MILLIS);
        try {
            if (deleteTree(doomed, deadline)) {
                return;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete temporary data dir " + path, e);
        }
        try {
            new ProcessBuilder("rm", "-rf", "--", doomed.toString()).redirectInput(ProcessBuilder.Redirect.from(
                    new java.io.File("/dev/null"))).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).directory(new java.io.File("/")).start();
        } catch (IOException e) {
            // no rm: the next drover run's sweep deletes it (the name ends in .deleting)
        }
    }

    /** How long {@link #close()} deletes the temporary dir itself before it hands the rest to {@code rm -rf}. */
    static final long DELETE_BUDGET_MILLIS = 2_000;

    /** As {@link #deleteTree(Path)}, giving up (false) once {@code deadlineNanos} has passed. */
    static boolean deleteTree(Path root, long deadlineNanos) throws IOException {
        try {
            deleteTree(root, () -> System.nanoTime() - deadlineNanos > 0);
            return true;
        } catch (OutOfTime e) {
            return false;
        }
    }

    /**
     * Deletes {@code root} and everything under it, never following a symbolic link (a link is deleted, not what
     * it points to); what is already gone (another run sweeping the same dir) is skipped. Blocking I/O.
     */
    static void deleteTree(Path root) throws IOException {
        deleteTree(root, () -> false);
    }

    /** Thrown out of the walk when its time is up. */
    private static final class OutOfTime extends IOException {
        OutOfTime() {
            super("out of time", null);
        }
    }

    private static void deleteTree(Path root, java.util.function.BooleanSupplier late) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (late.getAsBoolean()) {
                    throw new OutOfTime();
                }
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof java.nio.file.NoSuchFileException)) {
                    throw e;
                }
                if (late.getAsBoolean()) {
                    throw new OutOfTime();
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
