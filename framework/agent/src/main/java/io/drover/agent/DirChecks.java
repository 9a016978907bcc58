package io.drover.agent;

import io.drover.core.fs.FileTrust;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The agent's directory security defaults (issue 4 item 6): data_dir created owner-only, plugin_dir refused
 * when others could plant a JAR in it. Pure file-system checks; called on the start-up thread.
 */
final class DirChecks {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    /**
     * A root agent's new data_dir: others may pass through, not list or write. Its exec and java tasks run as other
     * users (nobody), and a java task reads host paths under it ({@code class_path = "${NOMAD_ALLOC_DIR}"}: it has
     * no chroot), which it can open only if it may pass through every parent; Nomad's alloc dir is 0711 too.
     */
    private static final Set<PosixFilePermission> ROOT_MODE = PosixFilePermissions.fromString("rwx--x--x");

    private DirChecks() {}

    /**
     * Creates {@code dir} (and missing parents) with mode 0700, or 0711 for an agent running as root
     * ({@link #ROOT_MODE}); an existing one is kept as it is.
     *
     * @return a warning when an existing data_dir may be read or written by group or others, else empty
     * @throws AgentStartException when it cannot be created or is not a writable directory
     */
    static Optional<String> prepareDataDir(Path dir) throws AgentStartException {
        try {
            if (!Files.isDirectory(dir)) {
                Path parent = dir.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                try {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY)); // then widened
                } catch (UnsupportedOperationException e) {
                    Files.createDirectory(dir);
                }
                setOwnerOnly(dir); // the umask may have removed bits; never added any
                if (root()) {
                    allocRoot(dir);
                }
                return Optional.empty();
            }
        } catch (FileAlreadyExistsException e) {
            if (dir.toString().equals(e.getFile())) {
                throw new AgentStartException("data_dir " + dir + " exists and is not a directory", e);
            }
            throw new AgentStartException("cannot create data_dir " + dir + ": " + e.getFile()
                    + " is not a directory", e);
        } catch (IOException | SecurityException e) {
            throw new AgentStartException("cannot create data_dir " + dir + ": " + reason(e), e);
        }
        if (!Files.isWritable(dir)) {
            throw new AgentStartException("data_dir " + dir + " is not writable", null);
        }
        return openTo(dir, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)
                .map(mode -> "data_dir " + dir + " is open to other users (" + mode + "); chmod "
                        + (root() ? "711" : "700") + " it");
    }

    /**
     * @return the reason to refuse {@code dir} as plugin_dir, one line: owned by another user than the agent's or
     *     root, or writable by group or others (anyone who can drop or replace a JAR there runs code in the
     *     agent), else empty
     */
    static Optional<String> pluginDirProblem(Path dir) {
        return FileTrust.problem(dir, FileTrust.Owners.AGENT_OR_ROOT).map(why -> "plugin_dir " + dir + " is " + why
                + ": refusing to load plugins from it (anyone who can write there could run code in the agent); "
                + "no drivers loaded; " + (why.startsWith("owned") ? "chown it to the agent's user or root"
                        : "chmod go-w it"));
    }

    private static Optional<String> openTo(Path dir, PosixFilePermission... bad) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
            Set<PosixFilePermission> found = EnumSet.noneOf(PosixFilePermission.class);
            for (PosixFilePermission p : bad) {
                if (perms.contains(p)) {
                    found.add(p);
                }
            }
            return found.isEmpty() ? Optional.empty() : Optional.of(PosixFilePermissions.toString(perms));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty(); // missing (the registry reports it) or not POSIX: nothing to check
        }
    }

    /**
     * {@code <data_dir>/alloc} of a new data_dir of a root agent, mode 0711 (Nomad's alloc dir mode): its tasks' users
     * pass through to their allocation, nobody else lists the allocation ids.
     */
    static void allocRoot(Path dataDir) throws IOException {
        Path alloc = dataDir.resolve("alloc");
        Files.createDirectory(alloc);
        Files.setPosixFilePermissions(alloc, ROOT_MODE);
    }

    /** Whether the agent runs as root: its tasks then run as other users that must pass through data_dir. */
    static boolean root() {
        return FileTrust.agentUid() == 0;
    }

    private static void setOwnerOnly(Path dir) throws IOException {
        try {
            Files.setPosixFilePermissions(dir, root() ? ROOT_MODE : OWNER_ONLY);
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to set
        }
    }

    private static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException a) {
            return "permission denied (" + a.getFile() + ")";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.toString();
    }
}
