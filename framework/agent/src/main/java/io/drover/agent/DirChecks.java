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

    private DirChecks() {}

    /**
     * Creates {@code dir} (and missing parents) with mode 0700; an existing one is kept as it is.
     *
     * @return a warning when an existing data_dir is open to group or others, else empty
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
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } catch (UnsupportedOperationException e) {
                    Files.createDirectory(dir);
                }
                setOwnerOnly(dir); // the umask may have removed bits; never added any
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
                PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_EXECUTE)
                .map(mode -> "data_dir " + dir + " is open to other users (" + mode + "); chmod 700 it");
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

    private static void setOwnerOnly(Path dir) throws IOException {
        try {
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
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
