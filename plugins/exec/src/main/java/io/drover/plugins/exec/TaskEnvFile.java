package io.drover.plugins.exec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How an exec task's environment reaches the task and nothing else: the root-side setup (shim, {@code unshare},
 * {@code sh}, {@code mount}, {@code chroot}) runs with {@link #rootEnv}, a fixed environment, and the task's own
 * environment is a file of {@code export 'K'='V'} lines that the final {@code sh} of the wrapper sources after
 * {@code chroot --userspec} dropped to the task user, right before it execs the command. So {@code LD_PRELOAD},
 * {@code LD_LIBRARY_PATH}, {@code GCONV_PATH}, {@code LIBMOUNT_*} and the like of a job reach only the task
 * itself, running as nobody, never a program running as root.
 *
 * <p>Why a file and not argv ({@code env -i K=V... cmd}): a process's arguments are readable by every user of the
 * machine ({@code /proc/PID/cmdline}), its environment and this file only by its own user. The file is
 * {@value #NAME} in the task directory, which is root's and not writable by the task, so no task can plant a
 * link there for the root agent to write through; it is created anew (mode 0600, then handed to the task user)
 * for each run. Stateless; any thread; {@link #write} does blocking file I/O (a few hundred bytes).
 */
final class TaskEnvFile {
    /** The file's name in the task directory; {@code /.drover-env} inside the chroot. */
    static final String NAME = ".drover-env";
    /** The only PATH the root-side setup sees (Nomad's executor uses the same for its own steps). */
    static final String ROOT_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";
    /** Drover's own variables ({@code DROVER_RUN_ID}, {@code DROVER_RUN_DIR}...) also mark the root-side processes. */
    static final String DROVER_PREFIX = "DROVER_";
    private static final Pattern NAME_RULE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern DROVER_NAME = Pattern.compile("DROVER_[A-Z0-9_]*");

    private TaskEnvFile() {}

    /**
     * The environment of every root-side step: {@code PATH} = {@value #ROOT_PATH}, plus the task's
     * {@code DROVER_[A-Z0-9_]*} entries (the run's id and directory, by which a later agent finds a run it never
     * recorded, {@code UnrecordedRuns}; no tool of the setup reads such a name). Nothing else of the task's.
     */
    static Map<String, String> rootEnv(Map<String, String> taskEnv) {
        Map<String, String> env = new TreeMap<>();
        taskEnv.forEach((k, v) -> {
            if (DROVER_NAME.matcher(k).matches()) {
                env.put(k, v);
            }
        });
        env.put("PATH", ROOT_PATH);
        return env;
    }

    /** The names of {@code env} that a shell cannot export (one problem each, sorted); empty when all can. */
    static List<String> badNames(Map<String, String> env) {
        List<String> bad = new ArrayList<>();
        new TreeMap<>(env).keySet().forEach(k -> {
            if (!NAME_RULE.matcher(k).matches()) {
                bad.add(k);
            }
        });
        return bad;
    }

    /** The file's text: one {@code export 'K'='V'} per entry, sorted by name, values single-quoted for sh. */
    static String text(Map<String, String> env) {
        StringBuilder s = new StringBuilder();
        new TreeMap<>(env).forEach((k, v) -> s.append("export ").append(Chroot.q(k)).append('=').append(Chroot.q(v))
                .append('\n'));
        return s.toString();
    }

    /**
     * Replaces {@code <taskDir>/.drover-env} with {@code env} (never following a link), mode 0600, owned by
     * {@code uid:gid} so that the task user can read it after the drop.
     *
     * @throws IOException naming the file
     */
    static Path write(Path taskDir, Map<String, String> env, int uid, int gid) throws IOException {
        Path file = taskDir.resolve(NAME);
        Files.deleteIfExists(file); // a link is removed, not followed
        try (OutputStream out = Channels.newOutputStream(Files.newByteChannel(file, Set.of(
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))) {
            out.write(text(env).getBytes(StandardCharsets.UTF_8));
        }
        Files.setAttribute(file, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(file, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        return file;
    }
}
