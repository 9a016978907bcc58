package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.util.List;
import jnr.ffi.byref.IntByReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and supervises task processes: {@link #spawn} starts one in its own session with
 * {@code posix_spawn}, and a single watcher thread (pidfd + epoll) reaps every child and completes its
 * {@link SupervisedProcess#onExit()}. Thread-safe; one instance per driver.
 *
 * <p>Creating an instance loads the native binding (~280 ms the first time in a class loader): do it in a
 * driver's {@code init}, not on a task's start.
 */
public final class ProcessSupervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessSupervisor.class);

    private final Native nat;
    private final Spawner spawner;
    private final ExitWatcher watcher;
    private final TreeKiller treeKiller;
    private final Attacher attacher;
    private final String name;
    private final jnr.ffi.Pointer readBuffer; // watcher thread only
    private volatile LogWriter logWriter; // started with the first task that rotates its logs
    private final String markerPrefix = Long.toHexString(new java.security.SecureRandom().nextLong()) + ".";
    private final java.util.concurrent.atomic.AtomicLong markers = new java.util.concurrent.atomic.AtomicLong();
    /** How long {@link #close} awaits queued task cgroup removals. */
    static final long REMOVALS_WAIT_MILLIS = 2000;
    /** Whether the reaper's exit path has been warmed ({@link ExitPathWarmUp}, at the first spawn). */
    private final java.util.concurrent.atomic.AtomicBoolean exitPathWarm = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Set in every task's environment to a value unique to the task ({@code <random>.<n>}); every descendant
     * inherits it, so the tree killer finds, after the group is dead, a descendant that left the group or the
     * session even once its parent link is gone (see {@link TreeKiller}).
     */
    public static final String TREE_VAR = "DROVER_PROCESS_TREE";

    private ProcessSupervisor(String name) {
        this.name = name;
        nat = Native.get();
        spawner = new Spawner(nat, ShimBinary.extract());
        watcher = new ExitWatcher(nat, "drover-" + name + "-reaper");
        treeKiller = new TreeKiller(this, watcher);
        attacher = new Attacher(this, nat, watcher);
        readBuffer = nat.allocate(OutputPipe.READ_SIZE);
    }

    /**
     * Loads the native binding and starts the watcher thread named {@code drover-<name>-reaper}.
     *
     * @throws UnsupportedOperationException when this is not Linux x86_64 with glibc ≥ 2.36
     */
    public static ProcessSupervisor create(String name) {
        try {
            return new ProcessSupervisor(name);
        } catch (LinkageError | IllegalStateException e) {
            throw new UnsupportedOperationException("process supervision is not available here: " + e, e);
        }
    }

    /**
     * Starts a process as {@link Spawner} describes and starts watching it. Blocks only for the spawn itself
     * (vfork + exec, about a millisecond).
     *
     * @throws SpawnException with the OS reason when it cannot start
     */
    public SupervisedProcess spawn(SpawnSpec spec) throws SpawnException {
        treeKiller.warmUp();
        if (!exitPathWarm.getAndSet(true)) {
            watcher.schedule(System.nanoTime(), () -> ExitPathWarmUp.run(this));
        }
        String marker = TREE_VAR + "=" + markerPrefix + markers.incrementAndGet();
        spec = withEnv(spec, marker);
        if (spec.rotation() == null) {
            return watch(spawner.spawn(spec, -1, -1), List.of(), spec.statusFile(), marker);
        }
        int[] out = pipe();
        int[] err;
        try {
            err = pipe();
        } catch (SpawnException e) {
            closeFd(out[0]);
            closeFd(out[1]);
            throw e;
        }
        int pid;
        try {
            pid = spawner.spawn(spec, out[1], err[1], out[0], err[0]);
        } catch (SpawnException e) {
            closeFd(out[0]);
            closeFd(err[0]);
            throw e;
        } finally {
            closeFd(out[1]); // the task holds the write ends now
            closeFd(err[1]);
        }
        LogWriter writer = logWriter();
        int budget = spec.rotation().bufferBytes();
        List<OutputPipe> pipes = List.of(
                new OutputPipe(this, watcher, writer, out[0], new RotatingFile(spec.stdout(), spec.rotation()), budget),
                new OutputPipe(this, watcher, writer, err[0], new RotatingFile(spec.stderr(), spec.rotation()), budget));
        // pipes first: a task that exits at once is reaped and its pipes drained, which needs them registered
        pipes.forEach(OutputPipe::register);
        return watch(pid, pipes, spec.statusFile(), marker);
    }

    /** The spec with one more environment entry {@code KEY=VALUE}. */
    private static SpawnSpec withEnv(SpawnSpec spec, String entry) {
        java.util.Map<String, String> env = new java.util.HashMap<>(spec.env());
        int eq = entry.indexOf('=');
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
        return spec.withEnv(env);
    }

    /**
     * Re-attaches to a process started under the shim by an earlier agent (it is not this JVM's child). When
     * {@code pid} still runs and its start time is {@code startTime}, it is watched through a pidfd: signals go to
     * its group, {@link SupervisedProcess#killTree()} works as for a child, and on its end the exit is read
     * from {@code statusFile}. When it has ended (or the pid now belongs to another process), the returned
     * process has already exited with what {@code statusFile} recorded. Output is not collected.
     *
     * @throws ProcessGoneException when the process has ended and its status file is missing or unreadable:
     *     its end cannot be known
     */
    public SupervisedProcess attach(int pid, long startTime, java.nio.file.Path statusFile)
            throws ProcessGoneException {
        return attach(pid, startTime, statusFile, null, null, null);
    }

    /**
     * As {@link #attach(int, long, java.nio.file.Path)}, and when the process runs and its shim holds its output
     * pipes (descriptors 3 and 4), re-opens them through {@code /proc/<pid>/fd} and collects the output again into
     * rotating files from {@code stdout} and {@code stderr} (continuing their highest index): what the task wrote
     * while no agent ran, up to a pipe buffer, and everything after.
     *
     * @param rotation null: no output is collected
     */
    public SupervisedProcess attach(int pid, long startTime, java.nio.file.Path statusFile, java.nio.file.Path stdout,
            java.nio.file.Path stderr, LogRotation rotation) throws ProcessGoneException {
        return attacher.attach(pid, startTime, statusFile, stdout, stderr, rotation);
    }

    /** A status file's content as an exit: a failed exec is exit code 127 with the OS reason. */
    ExitResult exitOf(ExitStatusFile.Status status) {
        if (status.execErrno() == 0) {
            return status.result();
        }
        if (status.cgroupJoin()) {
            return new ExitResult(127, 0, false, "joining the task's cgroup failed under the shim (the task never "
                    + "ran): " + nat.strerror(status.execErrno()));
        }
        return new ExitResult(127, 0, false, "exec failed under the shim: " + nat.strerror(status.execErrno()));
    }

    private SupervisedProcess watch(int pid, List<OutputPipe> pipes, java.nio.file.Path statusFile,
            String marker) throws SpawnException {
        int pidfd = nat.libc.pidfd_open(pid, 0);
        if (pidfd < 0) {
            int errno = nat.errno();
            nat.libc.kill(-pid, 9);
            nat.libc.waitpid(pid, new IntByReference(), 0);
            throw new SpawnException("pidfd_open: " + nat.strerror(errno), errno);
        }
        long startTime = ProcTable.read(pid).map(ProcTable.Proc::startTime).orElse(-1L); // unreaped: still ours
        SupervisedProcess process = new SupervisedProcess(this, pid, pidfd, pipes, pipes.isEmpty() ? null : logWriter,
                statusFile, true, startTime, marker);
        try {
            process.register(watcher);
        } catch (IllegalStateException e) {
            nat.libc.kill(-pid, 9);
            nat.libc.waitpid(pid, new IntByReference(), 0);
            nat.libc.close(pidfd);
            throw new SpawnException(e.getMessage(), 0);
        }
        return process;
    }

    /** A pipe, both ends close-on-exec, the read end non-blocking (the task's write end stays blocking). */
    private int[] pipe() throws SpawnException {
        int[] fds = new int[2];
        if (nat.libc.pipe2(fds, Native.O_CLOEXEC) != 0) {
            int errno = nat.errno();
            throw new SpawnException("pipe2: " + nat.strerror(errno), errno);
        }
        int flags = nat.libc.fcntl(fds[0], Native.F_GETFL, 0);
        if (flags < 0 || nat.libc.fcntl(fds[0], Native.F_SETFL, flags | Native.O_NONBLOCK) != 0) {
            int errno = nat.errno();
            closeFd(fds[0]);
            closeFd(fds[1]);
            throw new SpawnException("fcntl(O_NONBLOCK): " + nat.strerror(errno), errno);
        }
        return fds;
    }

    synchronized LogWriter logWriter() {
        if (logWriter == null) {
            logWriter = new LogWriter("drover-" + name + "-logs");
        }
        return logWriter;
    }

    /** The log writer if one was started, else null. */
    LogWriter currentLogWriter() {
        return logWriter;
    }

    jnr.ffi.Pointer readBuffer() {
        return readBuffer;
    }

    long read(int fd, jnr.ffi.Pointer buf, int size) {
        return nat.libc.read(fd, buf, size);
    }

    int lastErrno() {
        return nat.errno();
    }

    /**
     * Stops the watcher thread. Running processes are left alone (the host decides about them), but their exits
     * are no longer reported. Then awaits, up to {@value #REMOVALS_WAIT_MILLIS} ms, the task cgroup removals handed
     * to the {@link CgroupWorker} so far (those of runs that ended), so that an agent or {@code drover run} that
     * exits right after its last task does not leave their cgroups to the next agent's sweep. Idempotent.
     */
    @Override
    public void close() {
        watcher.close();
        try {
            CgroupWorker.instance().flush().get(REMOVALS_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("task cgroups: removals not done within {} ms of the supervisor's close; the next agent's "
                    + "sweep takes them", REMOVALS_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LogWriter writer = currentLogWriter();
        if (writer != null) {
            writer.close();
        }
    }

    /** Raises the calling thread (the reaper, the tree killer) where the process may: {@link ThreadNice}. */
    void raiseCallingThread() {
        ThreadNice.raiseCallingThread(nat, ThreadNice.RAISED);
    }

    TreeKiller treeKiller() {
        return treeKiller;
    }

    /** Tests only: runs on the signalling thread just before a {@link #killGroup} (a thread descheduled there). */
    volatile java.util.function.IntConsumer beforeKillGroup;

    void killGroup(int pgid, int signal) {
        java.util.function.IntConsumer hook = beforeKillGroup;
        if (hook != null) {
            hook.accept(signal);
        }
        if (nat.libc.kill(-pgid, signal) != 0) {
            int errno = nat.errno();
            if (errno != Native.ESRCH) {
                throw new IllegalStateException("kill(-" + pgid + ", " + signal + "): " + nat.strerror(errno));
            }
        }
    }

    void killGroupQuietly(int pgid) {
        if (nat.libc.kill(-pgid, 9) != 0 && nat.errno() != Native.ESRCH) {
            LOG.warn("kill(-{}, SIGKILL): {}", pgid, lastError());
        }
    }

    boolean groupExists(int pgid) {
        return nat.libc.kill(-pgid, 0) == 0 || nat.errno() != Native.ESRCH;
    }

    /** SIGKILL through a pidfd; true when sent (the process was not reaped yet). */
    boolean pidfdKill(int pidfd) {
        if (nat.libc.pidfd_send_signal(pidfd, 9, null, 0) == 0) {
            return true;
        }
        if (nat.errno() != Native.ESRCH) {
            LOG.warn("pidfd_send_signal(SIGKILL): {}", lastError());
        }
        return false;
    }

    /** Whether the process of {@code pidfd} still lives (not yet exited): {@code pidfd_send_signal(fd, 0)}. */
    boolean pidfdAlive(int pidfd) {
        return nat.libc.pidfd_send_signal(pidfd, 0, null, 0) == 0;
    }

    int pidfdOpen(int pid) {
        return nat.libc.pidfd_open(pid, 0);
    }

    int waitpid(int pid, IntByReference status) {
        return nat.libc.waitpid(pid, status, Native.WNOHANG);
    }

    void closeFd(int fd) {
        if (fd >= 0) {
            nat.libc.close(fd);
        }
    }

    String lastError() {
        return nat.strerror(nat.errno());
    }
}
