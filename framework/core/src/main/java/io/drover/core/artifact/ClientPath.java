package io.drover.core.artifact;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a path from job content lands, by Nomad's rule ({@code client/taskenv} {@code ClientPath} and
 * {@code checkEscape}): an artifact's or a template's {@code destination}, a template's {@code source}, a file a
 * template reads. The path has already been interpolated with the client's host paths ({@code NOMAD_ALLOC_DIR},
 * {@code NOMAD_TASK_DIR}, {@code NOMAD_SECRETS_DIR}). Then:
 * <ol>
 *   <li>a relative path is joined to the task directory;</li>
 *   <li>an absolute path inside neither the task directory nor the allocation's shared {@code alloc/} directory
 *       is, with {@link Kind#DESTINATION}, re-rooted under the task directory ({@code /local/x.conf} is
 *       {@code <task>/local/x.conf}); with {@link Kind#SOURCE} it is an escape;</li>
 *   <li>after cleaning ({@code .} and {@code ..} removed, as Go's {@code filepath.Clean}), the result must lie in
 *       the task directory or the shared alloc directory, else it is an escape.</li>
 * </ol>
 * The answer is a {@link Target}: the root it lies in and the path below it. The caller then writes, reads or
 * watches only through {@link SafeFiles} relative to that root, so that no link on the way is followed (this
 * class never looks at the file system: a link planted in {@code alloc/} or in the task directory is the file
 * code's to refuse, at every call).
 *
 * <p>Contract: pure and thread-safe; no I/O; idempotent. {@link #parseProblem} is the same rule against stand-in
 * directories, for what escapes for certain before anything runs.
 */
public record ClientPath(Path taskDir, Path sharedDir) {
    /** Whether an absolute path outside both directories is re-rooted (Nomad's {@code joinEscape}). */
    public enum Kind {
        /** Artifact and template destinations: re-rooted under the task directory. */
        DESTINATION,
        /** A template source and a file a template reads: an escape. */
        SOURCE
    }

    /** A resolved path: {@code root} (the task directory or the shared alloc directory) and the path below it. */
    public record Target(Path root, String relative) {
        /** {@code root/relative}; the root itself when {@code relative} is empty. */
        public Path path() {
            return relative.isEmpty() ? root : root.resolve(relative);
        }
    }

    /** Stand-ins for the parse-time check: the allocation's directory is unknown before it is placed. */
    private static final Path PARSE_ALLOC = Path.of("/drover-parse-alloc");

    public ClientPath {
        taskDir = taskDir.toAbsolutePath().normalize();
        sharedDir = sharedDir.toAbsolutePath().normalize();
    }

    /** @return where {@code path} lands, empty when it escapes (or is not a path at all) */
    public Optional<Target> resolve(String path, Kind kind) {
        if (path == null || path.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        Path p;
        try {
            p = Path.of(path);
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
        if (!p.isAbsolute() || (kind == Kind.DESTINATION && within(p.normalize()).isEmpty())) {
            p = taskDir.resolve(path.replaceFirst("^/+", ""));
        }
        return within(p.normalize());
    }

    /** The message for an escape, Nomad's words: {@code template destination path escapes alloc directory}. */
    public static String escapes(String what, String path) {
        return what + " path \"" + path + "\" escapes alloc directory (it must lie in the task directory or the "
                + "shared alloc/ directory)";
    }

    /**
     * What the job file can be told before anything runs: the path escapes whatever the allocation's directories
     * turn out to be. A path with {@code ${...}} is left to the run (its value is not known yet).
     *
     * @param task the task's name (its own directory, {@code ../<task>/x}, is not an escape)
     */
    public static Optional<String> parseProblem(String path, Kind kind, String what, String task) {
        if (path.indexOf('\0') >= 0) {
            return Optional.of("must not contain a NUL character");
        }
        if (path.contains("${")) {
            return Optional.empty();
        }
        boolean odd = task == null || task.isEmpty() || task.contains("/") || task.equals(".") || task.equals("..");
        String name = odd ? "task" : task;
        ClientPath stand = new ClientPath(PARSE_ALLOC.resolve(name), PARSE_ALLOC.resolve("alloc"));
        if (stand.resolve(path, kind).isPresent()) {
            return Optional.empty();
        }
        String hint = kind == Kind.SOURCE && path.startsWith("/")
                ? "; an absolute source must name the task or alloc directory, e.g. ${NOMAD_TASK_DIR}/x"
                : "";
        return Optional.of(escapes(what, path) + hint);
    }

    private Optional<Target> within(Path p) {
        if (p.startsWith(taskDir)) {
            return Optional.of(new Target(taskDir, taskDir.relativize(p).toString()));
        }
        if (p.startsWith(sharedDir)) {
            return Optional.of(new Target(sharedDir, sharedDir.relativize(p).toString()));
        }
        return Optional.empty();
    }
}
