package io.drover.plugins.exec;

import io.drover.process.TaskUser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * How an exec task is wrapped: the host tools found at init, the task user, and the host directories of Nomad's
 * default {@code chroot_env} that exist here. Immutable; the path methods are pure, {@link #prepare} touches the
 * task's directories. Any thread.
 *
 * <p>The wrapper is {@code unshare --mount --propagation private -- sh -c SETUP drover-exec ROOT ALLOC CWD
 * COMMAND ARGS...}; the PID and IPC namespaces of {@code pid_mode} / {@code ipc_mode = "private"} are the shim's
 * ({@code --pid-ns}, {@code --ipc-ns}, made before it execs this wrapper, see drover-shim.c). Each program in it execs the next (unshare without {@code --fork}, {@code exec chroot},
 * chroot), so the task ends up with the pid the shim spawned and no process sits between the shim and the task:
 * signals, exit status and tree kill behave as with raw_exec. SETUP runs as root inside the new mount namespace,
 * whose mounts are private (nothing propagates to the host) and vanish with its last process:
 * <ul>
 *   <li>each of {@code /bin /etc /lib /lib32 /lib64 /sbin /usr} that exists is bind-mounted (not recursively)
 *       read-only, nosuid and nodev onto the same-named directory of the task directory (Nomad copies or
 *       hard-links them instead);</li>
 *   <li>the allocation's shared directory is bind-mounted (nosuid, nodev) onto {@code <task dir>/alloc};</li>
 *   <li>{@code /dev} is a small private tmpfs with binds of null, zero, full, random, urandom and tty, plus the
 *       fd, stdin, stdout and stderr links; {@code /proc} is a new proc mount of the task's PID namespace (in private mode it lists the task's
 *       own processes only, the task being PID 1; in host mode every process of the host);</li>
 *   <li>then {@code exec chroot --userspec=UID:GID <task dir> /bin/sh -c '... . /.drover-env; exec "$@"'}: as
 *       the task user, that last shell changes to {@code work_dir}, exports the task's environment from the file
 *       {@link TaskEnvFile} wrote and execs the command.</li>
 * </ul>
 * Every step before the drop runs as root with {@link TaskEnvFile#rootEnv}, never with the task's environment
 * (a job's {@code LD_PRELOAD} would otherwise be loaded into {@code unshare}, {@code sh}, {@code mount} and
 * {@code chroot} as root); the shim before them is a static program with no dynamic loader.
 */
final class Chroot {
    /** Nomad's default {@code chroot_env}, bound rather than copied. */
    static final List<String> CHROOT_ENV = List.of("/bin", "/etc", "/lib", "/lib32", "/lib64", "/sbin", "/usr");
    static final String HEALTH_PREFIX = "exec: needs root (uid 0) and unshare, mount, chroot on PATH";
    /** Device nodes bound into the task's private /dev when the host has them. */
    private static final List<String> DEVICES = List.of("null", "zero", "full", "random", "urandom", "tty");
    private static final String FALLBACK_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    /** After the drop to the task user: cd to work_dir ($0), the task's environment (TaskEnvFile), exec "$@". */
    private static final String INNER = "[ \"$0\" = / ] || cd \"$0\" || exit; unset PWD OLDPWD; . /"
            + TaskEnvFile.NAME + "; exec \"$@\"";

    final String unshare;
    final String chroot;
    final String sh;
    final String script;
    final int uid;
    final int gid;
    /** The entries of {@link #CHROOT_ENV} that exist on this host. */
    final List<String> bound;

    private Chroot(String unshare, String sh, String mount, String chroot, String ln, int uid, int gid,
            List<String> bound) {
        this.unshare = unshare;
        this.chroot = chroot;
        this.sh = sh;
        this.uid = uid;
        this.gid = gid;
        this.bound = List.copyOf(bound);
        this.script = script(mount, chroot, ln, uid, gid, this.bound);
    }

    /** Where the host has what the wrapper needs, or why not (one line starting with {@link #HEALTH_PREFIX}). */
    static Result detect() {
        return detect(TaskUser.effectiveUid());
    }

    /** {@link #detect()} for an agent running as {@code euid} (empty: unknown). */
    static Result detect(Optional<Integer> euid) {
        if (euid.isEmpty() || euid.get() != 0) {
            return Result.problem(HEALTH_PREFIX + " (the agent runs as uid " + euid.map(String::valueOf).orElse("?")
                    + ")");
        }
        Map<String, String> tools = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("unshare", "mount", "chroot", "ln", "sh")) {
            Optional<Path> found = onPath(tool);
            if (found.isPresent()) {
                tools.put(tool, found.get().toString());
            } else {
                missing.add(tool);
            }
        }
        if (!missing.isEmpty()) {
            return Result.problem(HEALTH_PREFIX + " (not found: " + String.join(", ", missing) + ")");
        }
        Optional<String> probe = probe(tools.get("unshare"));
        if (probe.isPresent()) {
            return Result.problem(HEALTH_PREFIX + " (" + probe.get() + ")");
        }
        TaskUser nobody = TaskUser.lookup("nobody").orElse(new TaskUser("nobody", 65534, 65534));
        List<String> bound = new ArrayList<>();
        for (String d : CHROOT_ENV) {
            if (Files.isDirectory(Path.of(d))) {
                bound.add(d);
            }
        }
        return new Result(new Chroot(tools.get("unshare"), tools.get("sh"), tools.get("mount"), tools.get("chroot"),
                tools.get("ln"), nobody.uid(), nobody.gid(), bound), null);
    }

    record Result(Chroot chroot, String problem) {
        static Result problem(String problem) {
            return new Result(null, problem);
        }
    }

    /** The spawn's argv[1..] after {@link #unshare}: the namespaces, the setup script and its arguments. */
    List<String> wrapperArgs(Path taskDir, Path allocDir, String workDir, String command, List<String> args) {
        return wrapperArgs(taskDir, allocDir, workDir, command, args, List.of());
    }

    /** {@link #wrapperArgs(Path, Path, String, String, List)} with the run's host volume binds. */
    List<String> wrapperArgs(Path taskDir, Path allocDir, String workDir, String command, List<String> args,
            List<VolumeBinds.Bind> binds) {
        List<String> all = new ArrayList<>(List.of("--mount", "--propagation", "private", "--", sh, "-c",
                script, "drover-exec", abs(taskDir), abs(allocDir), workDir));
        all.addAll(VolumeBinds.args(binds));
        all.add(command);
        all.addAll(args);
        return all;
    }

    /**
     * An exec in a running task ({@code TaskDriver.exec}): {@code nsenter --target PID --mount --ipc [--pid] --}
     * into the task's namespaces ({@code --pid} when the task has a PID namespace of its own: nsenter then forks,
     * so the command is a process of that namespace and its {@code ps} lists the task's processes and itself), then the same drop as the task's own start:
     * {@code chroot --userspec=UID:GID <task dir> /bin/sh -c '<cd work_dir; . /.drover-env; exec "$@">' WORKDIR COMMAND ARGS...}. Run as root with
     * {@link TaskEnvFile#rootEnv}; the task's environment comes from its env file inside the chroot.
     *
     * @param nsenter the host's nsenter
     * @param pid a process of the task (in its mount namespace)
     */
    List<String> execArgs(String nsenter, int pid, Path taskDir, String workDir, List<String> command) {
        List<String> all = new ArrayList<>(List.of(nsenter, "--target", Integer.toString(pid), "--mount", "--ipc"));
        if (ownPidNamespace(pid)) {
            all.add("--pid");
        }
        all.addAll(List.of("--", chroot, "--userspec=" + uid + ":" + gid, abs(taskDir), "/bin/sh", "-c", INNER,
                workDir));
        all.addAll(command);
        return all;
    }

    /** Whether process {@code pid} is in another PID namespace than the agent (false when unreadable). */
    static boolean ownPidNamespace(int pid) {
        try {
            return !Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).equals(
                    Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/pid")));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The host's nsenter, for {@link #execArgs}; empty when it has none. */
    static Optional<String> nsenter() {
        return onPath("nsenter").map(Path::toString);
    }

    /** The task's work directory and task directory, read back from the wrapper of its start (see wrapperArgs). */
    static Optional<String[]> wrapped(List<String> args) {
        int at = args.indexOf("drover-exec");
        return at < 0 || args.size() < at + 4 ? Optional.empty()
                : Optional.of(new String[] {args.get(at + 1), args.get(at + 3)});
    }

    /**
     * Nomad's view of a host path the engine handed out: the task directory (or a path under it) becomes
     * {@code /} (e.g. {@code <task dir>/local} → {@code /local}), the allocation's shared directory becomes
     * {@code /alloc}. Any other value is returned unchanged.
     */
    static String inside(String value, Path taskDir, Path allocDir) {
        for (Path alloc : List.of(allocDir, allocDir.toAbsolutePath().normalize())) {
            String a = alloc.toString();
            if (value.equals(a)) {
                return "/alloc";
            }
            if (value.startsWith(a + "/")) {
                return "/alloc" + value.substring(a.length());
            }
        }
        for (Path task : List.of(taskDir, taskDir.toAbsolutePath().normalize())) {
            String t = task.toString();
            if (value.equals(t)) {
                return "/";
            }
            if (value.startsWith(t + "/")) {
                return value.substring(t.length());
            }
        }
        return value;
    }

    /** {@code env} with every value rewritten by {@link #inside}, except the keys in {@code keep}. */
    static Map<String, String> insideEnv(Map<String, String> env, Path taskDir, Path allocDir,
            java.util.Set<String> keep) {
        Map<String, String> out = new HashMap<>();
        env.forEach((k, v) -> out.put(k, keep.contains(k) ? v : inside(v, taskDir, allocDir)));
        return out;
    }

    /** Where the host sees a path of the task's chroot (what the binds make of it). */
    Path host(String chrootPath, Path taskDir, Path allocDir) {
        Path p = Path.of("/").resolve(chrootPath).normalize();
        Path alloc = Path.of("/alloc");
        if (p.startsWith(alloc)) {
            return allocDir.resolve(alloc.relativize(p).toString());
        }
        for (String d : bound) {
            if (p.startsWith(d)) {
                return p;
            }
        }
        return taskDir.resolve(Path.of("/").relativize(p).toString());
    }

    /**
     * Whether {@code command} names something in the chroot, as execvp would look it up with {@code path} (the
     * task's PATH) from {@code workDir}: lenient (a dangling link counts), to catch only the typo that would
     * otherwise end as exit code 127.
     */
    boolean commandExists(String command, String path, String workDir, Path taskDir, Path allocDir) {
        return hostCommand(command, path, workDir, taskDir, allocDir).isPresent();
    }

    /** The host path of the first entry {@link #commandExists} finds (a link itself, not followed). */
    /**
     * A bare command name found in the task's {@code local/} or at its root ({@link TaskDirCommand}, Nomad's
     * lookupTaskBin) as its in-chroot path ({@code /local/run.sh}, {@code /run.sh}); else {@code command}
     * unchanged, for the PATH search inside the chroot.
     */
    static String inTaskDir(String command, Path taskDir) {
        return io.drover.process.TaskDirCommand.find(command, taskDir)
                .map(p -> "/" + taskDir.relativize(p)).orElse(command);
    }

    java.util.Optional<Path> hostCommand(String command, String path, String workDir, Path taskDir,
            Path allocDir) {
        if (command.indexOf('/') >= 0) {
            Path p = host(resolve(workDir, command), taskDir, allocDir);
            return exists(p) ? java.util.Optional.of(p) : java.util.Optional.empty();
        }
        for (String dir : (path == null ? "/usr/local/bin:/usr/bin:/bin" : path).split(":", -1)) {
            String inDir = dir.isEmpty() ? workDir : resolve(workDir, dir);
            Path p = host(resolve(inDir, command), taskDir, allocDir);
            if (exists(p)) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    private static String resolve(String dir, String path) {
        return path.startsWith("/") ? path : (dir.endsWith("/") ? dir : dir + "/") + path;
    }

    private static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Creates the mount points (as root, owned by root: the task cannot write its root directory, so it cannot
     * touch the shim's exit record there) and the task's own directories, and hands {@code local}, {@code secrets},
     * {@code tmp} and the allocation's {@code data} and {@code tmp} to the task user, as Nomad does, and lets the task
     * add files to the allocation's shared directory (sticky, mode 1777).
     *
     * @throws IOException naming the path, e.g. when a mount point exists and is not a directory
     */
    void prepare(Path taskDir, Path allocDir) throws IOException {
        List<Path> mountPoints = new ArrayList<>();
        for (String d : bound) {
            mountPoints.add(taskDir.resolve(d.substring(1)));
        }
        mountPoints.add(taskDir.resolve("alloc"));
        mountPoints.add(taskDir.resolve("dev"));
        mountPoints.add(taskDir.resolve("proc"));
        for (Path p : mountPoints) {
            directory(p);
        }
        for (Path p : List.of(taskDir.resolve("local"), taskDir.resolve("secrets"), taskDir.resolve("tmp"))) {
            directory(p);
            chown(p);
        }
        for (Path p : List.of(allocDir.resolve("data"), allocDir.resolve("tmp"))) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                chown(p);
            }
        }
        // Nomad makes the shared alloc dir writable by every task (mode 0777, owned by nobody): e2e's java jobs
        // write classes to ${NOMAD_ALLOC_DIR}. Here it stays root's, sticky and world-writable like /tmp, so a task
        // can add files but cannot rename or replace the agent's logs/, data/ or tmp/ (no planted link).
        if (Files.isDirectory(allocDir, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(allocDir)) {
            Files.setAttribute(allocDir, "unix:mode", 01777, LinkOption.NOFOLLOW_LINKS);
        }
    }

    private void chown(Path p) throws IOException {
        Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
    }

    private static void directory(Path p) throws IOException {
        if (Files.isSymbolicLink(p) || (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p))) {
            throw new IOException(p + " exists and is not a directory");
        }
        Files.createDirectories(p);
    }

    private static String abs(Path p) {
        return p.toAbsolutePath().normalize().toString();
    }

    /**
     * The setup script; its arguments: $1 task dir, $2 alloc dir, $3 work dir in the chroot, $4 the number of host
     * volume binds and three arguments per bind ({@link VolumeBinds#args}), then the command.
     */
    private static String script(String mount, String chroot, String ln, int uid, int gid, List<String> bound) {
        StringBuilder s = new StringBuilder("set -e; root=$1; alloc=$2; cwd=$3; n=$4; shift 4\n");
        for (String d : bound) {
            s.append(q(mount)).append(" --bind ").append(q(d)).append(" \"$root\"").append(q(d)).append('\n');
            s.append(q(mount)).append(" -o remount,bind,ro,nosuid,nodev \"$root\"").append(q(d)).append('\n');
        }
        s.append(q(mount)).append(" --bind \"$alloc\" \"$root/alloc\"\n");
        s.append(q(mount)).append(" -o remount,bind,nosuid,nodev \"$root/alloc\"\n");
        s.append(VolumeBinds.script(mount));
        s.append(q(mount)).append(" -t tmpfs -o mode=0755,nosuid,noexec,size=64k drover-dev \"$root/dev\"\n");
        s.append("for n in");
        DEVICES.forEach(d -> s.append(' ').append(d));
        s.append("; do if [ -c \"/dev/$n\" ]; then : > \"$root/dev/$n\"; ").append(q(mount))
                .append(" --bind \"/dev/$n\" \"$root/dev/$n\"; fi; done\n");
        s.append(q(ln)).append(" -s /proc/self/fd \"$root/dev/fd\"\n");
        for (int fd = 0; fd < 3; fd++) {
            s.append(q(ln)).append(" -s /proc/self/fd/").append(fd).append(" \"$root/dev/")
                    .append(List.of("stdin", "stdout", "stderr").get(fd)).append("\"\n");
        }
        s.append(q(mount)).append(" -t proc -o nosuid,nodev,noexec proc \"$root/proc\"\n");
        // after the drop: cd to work_dir, apply the task's environment (TaskEnvFile), exec the command
        s.append("exec ").append(q(chroot)).append(" --userspec=").append(uid).append(':').append(gid)
                .append(" \"$root\" /bin/sh -c ").append(q(INNER)).append(" \"$cwd\" \"$@\"\n");
        return s.toString();
    }

    /** Single-quoted for sh. */
    static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static Optional<Path> onPath(String tool) {
        String path = System.getenv("PATH");
        for (String dir : ((path == null ? "" : path + ":") + FALLBACK_PATH).split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, tool);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Whether a private mount namespace can be made here (root in a container may lack CAP_SYS_ADMIN). */
    private static Optional<String> probe(String unshare) {
        try {
            Process p = new ProcessBuilder(unshare, "--mount", "--ipc", "--propagation", "private", "--", "true")
                    .redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.of("unshare did not answer within 10 s");
            }
            if (p.exitValue() != 0) {
                String first = out.isEmpty() ? "exit code " + p.exitValue() : out.lines().findFirst().orElse("");
                return Optional.of(first);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot run unshare: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while probing unshare");
        }
    }
}
