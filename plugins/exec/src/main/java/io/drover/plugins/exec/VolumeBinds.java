package io.drover.plugins.exec;

import io.drover.driver.api.MountConfig;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The host volumes of an exec run ({@link io.drover.driver.api.TaskConfig#mounts()}), as the setup script binds
 * them: each host directory bind-mounted (nosuid, nodev; read-only when the mount says so) onto its destination
 * inside the task's chroot, after the chroot's own binds and inside the run's private mount namespace, so the
 * host never sees the mount and it goes away with the run's last process (nothing to undo at the task's end, the
 * allocation's or GC; after an agent restart a re-attached run keeps its namespace).
 *
 * <p>The destination is a path inside the chroot ({@code /data}; relative paths are from its root). Refused, in
 * one line naming it: a path that leaves the task directory; the chroot's root; {@code /alloc} and below (shared
 * with the allocation's other tasks while they run: one of them could swap a directory on the way for a link
 * between the check and the mount); {@code /dev}, {@code /proc} and the host directories exec binds read-only.
 * The mount point is created as root one component at a time, and any component that is a link, or not a
 * directory, is refused: mount(2) follows links, and a link the task planted in its own directory on an earlier
 * run ({@code local/data -> /etc}) would otherwise put the volume over a host directory in the namespace of the
 * root-run setup. No task process runs while this is checked (a run starts after the previous one ended), and
 * every directory above a mount point is either root's or the task's own.
 *
 * <p>Pure except {@link #prepare} (blocking: a stat or mkdir per component, on the start's thread). Any thread.
 */
final class VolumeBinds {
    /** One bind for the setup script: host source, destination in the chroot (absolute, normalised), flags. */
    record Bind(String source, String destination, boolean readOnly) {}

    private VolumeBinds() {}

    /**
     * Checks every mount and creates its mount point under {@code taskDir}.
     *
     * @param bound the host directories exec binds into the chroot ({@link Chroot#CHROOT_ENV} found here)
     * @return the binds, parents before children
     * @throws IOException with one line naming the destination, for the first mount that cannot be made
     */
    static List<Bind> prepare(List<MountConfig> mounts, Path taskDir, List<String> bound) throws IOException {
        List<Bind> out = new ArrayList<>();
        for (MountConfig m : mounts) {
            String dest = destination(m.taskPath(), bound);
            if (!m.propagationMode().equals("private")) {
                throw new IOException("volume_mount of \"" + m.volume() + "\": propagation_mode \""
                        + m.propagationMode() + "\" is not supported by exec (each run has a private mount"
                        + " namespace); use \"private\"");
            }
            mountPoint(taskDir, dest);
            out.add(new Bind(m.hostPath(), dest, m.readOnly()));
        }
        out.sort(Comparator.comparingInt((Bind b) -> b.destination().length()));
        return out;
    }

    /** The destination as an absolute, normalised chroot path; refused as the class comment says. */
    static String destination(String taskPath, List<String> bound) throws IOException {
        if (taskPath.isEmpty() || taskPath.indexOf('\0') >= 0) {
            throw new IOException("volume_mount destination \"" + taskPath + "\" is not a path");
        }
        List<String> parts = new ArrayList<>();
        for (String part : taskPath.split("/")) {
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    throw new IOException("volume_mount destination path \"" + taskPath
                            + "\" escapes the task directory");
                }
                parts.remove(parts.size() - 1);
            } else if (!part.isEmpty() && !part.equals(".")) {
                parts.add(part);
            }
        }
        if (parts.isEmpty()) {
            throw new IOException("volume_mount destination \"" + taskPath + "\" is the task's root; name a"
                    + " directory inside it (e.g. /data)");
        }
        String dest = "/" + String.join("/", parts);
        List<String> reserved = new ArrayList<>(bound);
        reserved.addAll(List.of("/alloc", "/dev", "/proc"));
        for (String r : reserved) {
            if (dest.equals(r) || dest.startsWith(r + "/")) {
                throw new IOException("volume_mount destination \"" + taskPath + "\" is inside " + r + ", which exec "
                        + (r.equals("/alloc") ? "shares with the allocation's other tasks"
                                : "mounts itself") + "; choose another directory (e.g. /data)");
            }
        }
        return dest;
    }

    /** Creates {@code taskDir + dest} one component at a time; a link or a non-directory on the way is refused. */
    private static void mountPoint(Path taskDir, String dest) throws IOException {
        Path at = taskDir.toAbsolutePath().normalize();
        for (String part : dest.substring(1).split("/")) {
            at = at.resolve(part);
            try {
                Files.createDirectory(at);
            } catch (FileAlreadyExistsException e) {
                // checked below
            }
            if (Files.isSymbolicLink(at)) {
                throw new IOException("volume_mount destination \"" + dest + "\": " + at
                        + " is a symbolic link; refusing to mount through it");
            }
            if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("volume_mount destination \"" + dest + "\": " + at + " is not a directory");
            }
        }
    }

    /** The script's arguments for the binds: the count, then source, destination and flags of each. */
    static List<String> args(List<Bind> binds) {
        List<String> out = new ArrayList<>();
        out.add(String.valueOf(binds.size()));
        for (Bind b : binds) {
            out.add(b.source());
            out.add(b.destination());
            out.add(b.readOnly() ? "ro," : "");
        }
        return out;
    }

    /** The script lines that make the binds ({@code $n} of them, from the positional arguments). */
    static String script(String mount) {
        String m = Chroot.q(mount);
        return "while [ \"$n\" -gt 0 ]; do " + m + " --bind \"$1\" \"$root$2\"; " + m
                + " -o \"remount,bind,$3nosuid,nodev\" \"$root$2\"; shift 3; n=$((n - 1)); done\n";
    }
}
