package io.drover.process;

import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jnr.ffi.Pointer;
import jnr.ffi.byref.IntByReference;

/**
 * Starts processes with glibc's {@code posix_spawn} (clone(CLONE_VM|CLONE_VFORK) + exec: no copy of the JVM's
 * page tables, exec errors returned to the caller): a new session and process group
 * ({@code POSIX_SPAWN_SETSID}), default signal dispositions and an empty signal mask (the JVM's are not
 * inherited), stdin from /dev/null, stdout/stderr appended to files, the work directory set with
 * {@code addchdir_np}, and every descriptor from 3 up closed with {@code addclosefrom_np} so that none of the
 * JVM's files leaks into the task.
 *
 * <p>Thread-safe: the spawn attributes are built once and only read afterwards; each call builds its own file
 * actions. A call blocks only for the vfork+exec (about a millisecond), never for the task.
 */
final class Spawner {
    private static final int FILE_ACTIONS_SIZE = 256; // glibc x86_64: 80
    private static final int ATTR_SIZE = 512; // glibc x86_64: 336
    private static final int SIGSET_SIZE = 128;
    private static final int LOG_MODE = 0644;
    private static final int ENOTDIR = 20;
    private static final int EACCES = 13;

    private final Native nat;
    private final Pointer attr;
    private final Path shim;

    /** @param shim the exit-status shim's executable, used for specs with a status file */
    Spawner(Native nat, Path shim) {
        this.nat = nat;
        this.shim = shim;
        LibC c = nat.libc;
        attr = nat.allocate(ATTR_SIZE);
        Pointer empty = nat.allocate(SIGSET_SIZE);
        Pointer all = nat.allocate(SIGSET_SIZE);
        check(c.posix_spawnattr_init(attr), "posix_spawnattr_init");
        check(c.sigemptyset(empty) == 0 ? 0 : nat.errno(), "sigemptyset");
        check(c.sigfillset(all) == 0 ? 0 : nat.errno(), "sigfillset");
        check(c.posix_spawnattr_setsigmask(attr, empty), "posix_spawnattr_setsigmask");
        check(c.posix_spawnattr_setsigdefault(attr, all), "posix_spawnattr_setsigdefault");
        check(c.posix_spawnattr_setflags(attr, (short) (Native.POSIX_SPAWN_SETSID | Native.POSIX_SPAWN_SETSIGDEF
                | Native.POSIX_SPAWN_SETSIGMASK)), "posix_spawnattr_setflags");
    }

    private void check(int err, String what) {
        if (err != 0) {
            throw new IllegalStateException(what + ": " + nat.strerror(err));
        }
    }

    /**
     * Starts the process; returns its pid, which is also its session id and process group id.
     *
     * @param stdoutFd when ≥ 0, the descriptor (a pipe's write end) that becomes the task's stdout instead of
     *     the spec's file; likewise {@code stderrFd}
     * @throws SpawnException with the OS reason when the command, work dir or a log file is unusable
     */
    int spawn(SpawnSpec spec, int stdoutFd, int stderrFd) throws SpawnException {
        return spawn(spec, stdoutFd, stderrFd, -1, -1);
    }

    /**
     * As {@link #spawn(SpawnSpec, int, int)}; with the shim, {@code holdOut} and {@code holdErr} (the pipes' read
     * ends, when ≥ 0 and neither is 3 or 4) become the shim's descriptors 3 and 4, which it keeps for a later
     * agent (see drover-shim.c).
     */
    int spawn(SpawnSpec spec, int stdoutFd, int stderrFd, int holdOut, int holdErr) throws SpawnException {
        Path workDir = spec.workDir();
        if (!Files.isDirectory(workDir)) {
            int errno = Files.exists(workDir) ? ENOTDIR : Native.ENOENT;
            throw new SpawnException("chdir \"" + workDir + "\": " + nat.strerror(errno), errno);
        }
        for (Path log : List.of(spec.stdout(), spec.stderr())) {
            Path parent = log.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new SpawnException("open \"" + log + "\": " + nat.strerror(Native.ENOENT), Native.ENOENT);
            }
        }
        Path exe = CommandResolver.resolve(spec.command(), spec.env().get("PATH"), workDir).orElseThrow(
                () -> new SpawnException("exec: \"" + spec.command() + "\": " + nat.strerror(Native.ENOENT),
                        Native.ENOENT));
        if (spec.statusFile() != null) {
            // under the shim the task's exec happens after posix_spawn returned: refuse here what exec would
            int errno = !Files.exists(exe) ? Native.ENOENT
                    : Files.isDirectory(exe) || !Files.isExecutable(exe) ? EACCES : 0;
            if (errno != 0) {
                throw new SpawnException("exec: \"" + spec.command() + "\": " + nat.strerror(errno), errno);
            }
        }
        List<String> argv = new ArrayList<>(spec.args().size() + 4);
        if (spec.statusFile() != null) {
            argv.add("drover-shim");
            if (spec.user() != null) {
                argv.add("--user");
                argv.add(spec.user().ids());
            }
            argv.addAll(spec.namespaces().shimArgs());
            for (Path dir : spec.cgroups()) {
                argv.add("--cgroup");
                argv.add(dir.toString());
            }
            argv.add(spec.statusFile().toString());
            argv.add(exe.toString());
        }
        argv.add(spec.command());
        argv.addAll(spec.args());
        List<String> envp = new ArrayList<>(spec.env().size());
        for (Map.Entry<String, String> e : spec.env().entrySet()) {
            envp.add(e.getKey() + "=" + e.getValue());
        }
        StringArray argvArray = new StringArray(nat, argv);
        StringArray envArray = new StringArray(nat, envp);

        LibC c = nat.libc;
        Pointer actions = nat.allocate(FILE_ACTIONS_SIZE);
        check(c.posix_spawn_file_actions_init(actions), "posix_spawn_file_actions_init");
        try {
            int logFlags = Native.O_WRONLY | Native.O_CREAT | Native.O_APPEND | Native.O_NOFOLLOW;
            byte[] devNull = Native.cstr("/dev/null");
            byte[] stdout = Native.cstr(spec.stdout().toString());
            byte[] stderr = Native.cstr(spec.stderr().toString());
            check(c.posix_spawn_file_actions_addopen(actions, 0, devNull, Native.O_RDONLY, 0), "addopen");
            check(stdoutFd >= 0 ? c.posix_spawn_file_actions_adddup2(actions, stdoutFd, 1)
                    : c.posix_spawn_file_actions_addopen(actions, 1, stdout, logFlags, LOG_MODE), "stdout");
            check(stderrFd >= 0 ? c.posix_spawn_file_actions_adddup2(actions, stderrFd, 2)
                    : c.posix_spawn_file_actions_addopen(actions, 2, stderr, logFlags, LOG_MODE), "stderr");
            check(c.posix_spawn_file_actions_addchdir_np(actions, Native.cstr(workDir.toString())), "addchdir_np");
            int keep = 3;
            if (spec.statusFile() != null && holdOut > 4 && holdErr > 4) {
                check(c.posix_spawn_file_actions_adddup2(actions, holdOut, 3), "hold stdout");
                check(c.posix_spawn_file_actions_adddup2(actions, holdErr, 4), "hold stderr");
                keep = 5;
            }
            check(c.posix_spawn_file_actions_addclosefrom_np(actions, keep), "addclosefrom_np");
            IntByReference pid = new IntByReference();
            Path program = spec.statusFile() == null ? exe : shim;
            int err = c.posix_spawn(pid, Native.cstr(program.toString()), actions, attr, argvArray.pointer(),
                    envArray.pointer());
            if (err != 0) {
                throw new SpawnException("exec: \"" + spec.command() + "\": " + nat.strerror(err), err);
            }
            return pid.intValue();
        } finally {
            c.posix_spawn_file_actions_destroy(actions);
            Reference.reachabilityFence(argvArray);
            Reference.reachabilityFence(envArray);
        }
    }

    /** A NULL-terminated {@code char *[]} in one native block; lives as long as this object is reachable. */
    private static final class StringArray {
        private final Pointer block;
        private final Pointer table;

        StringArray(Native nat, List<String> strings) {
            byte[][] bytes = new byte[strings.size()][];
            int total = 0;
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = strings.get(i).getBytes(StandardCharsets.UTF_8);
                total += bytes[i].length + 1;
            }
            block = nat.allocate(Math.max(total, 1));
            table = nat.allocate((bytes.length + 1) * Long.BYTES);
            long offset = 0;
            for (int i = 0; i < bytes.length; i++) {
                block.put(offset, bytes[i], 0, bytes[i].length);
                block.putByte(offset + bytes[i].length, (byte) 0);
                table.putAddress((long) i * Long.BYTES, block.address() + offset);
                offset += bytes[i].length + 1;
            }
            table.putAddress((long) bytes.length * Long.BYTES, 0L);
        }

        Pointer pointer() {
            return table;
        }
    }
}
