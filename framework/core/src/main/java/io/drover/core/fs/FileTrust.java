package io.drover.core.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Whether a file or directory the agent trusts (a plugin JAR, the plugin_dir, the state dir) could have been
 * written by another user: its owner and its group/world write bits. Pure apart from {@code stat}; any thread.
 * The agent's user is the process's effective uid (the owner of {@code /proc/self}).
 */
public final class FileTrust {
    /** Who may own a trusted path besides the agent's own user. */
    public enum Owners {
        /** The agent's user only (the state dir: the agent creates it). */
        AGENT,
        /** The agent's user or root (plugin JARs and plugin_dir: an operator installs them as root). */
        AGENT_OR_ROOT
    }

    private static final int UNKNOWN = -1;
    private static final int AGENT_UID = readUid();

    private FileTrust() {}

    /** The agent process's effective uid, or -1 when it cannot be told (no procfs: nothing is then checked). */
    public static int agentUid() {
        return AGENT_UID;
    }

    /**
     * Why {@code path} (links followed) cannot be trusted: owned by another user than {@code owners} allows, or
     * writable by group or others. Empty when it can, and when it cannot be checked (missing, not POSIX): the
     * caller reports a missing path itself.
     */
    public static Optional<String> problem(Path path, Owners owners) {
        PosixFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, PosixFileAttributes.class);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
        Optional<String> owner = ownerProblem(path, owners);
        if (owner.isPresent()) {
            return owner;
        }
        if (attrs.permissions().contains(PosixFilePermission.GROUP_WRITE)
                || attrs.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            return Optional.of("writable by other users (" + PosixFilePermissions.toString(attrs.permissions()) + ")");
        }
        return Optional.empty();
    }

    private static Optional<String> ownerProblem(Path path, Owners owners) {
        if (AGENT_UID == UNKNOWN) {
            return Optional.empty();
        }
        int uid;
        String name;
        try {
            uid = (Integer) Files.getAttribute(path, "unix:uid");
            name = Files.getOwner(path).getName();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return Optional.empty();
        }
        if (uid == AGENT_UID || (owners == Owners.AGENT_OR_ROOT && uid == 0)) {
            return Optional.empty();
        }
        String allowed = owners == Owners.AGENT_OR_ROOT && AGENT_UID != 0 ? "the agent's user (uid " + AGENT_UID
                + ") or root" : "the agent's user (uid " + AGENT_UID + ")";
        return Optional.of("owned by " + (name.equals(Integer.toString(uid)) ? "uid " + uid
                : "user " + name + " (uid " + uid + ")") + ", not by " + allowed);
    }

    private static int readUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return UNKNOWN;
        }
    }
}
