package io.drover.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-attaches a {@link ProcessSupervisor} to a shim started by an earlier agent (see
 * {@link ProcessSupervisor#attach(int, long, Path, Path, Path, LogRotation)}): pins the recorded pid with a pidfd
 * and checks its start time (a recycled pid is never watched or signalled), re-opens the output pipes the shim
 * holds, or reads the exit the shim recorded. Thread-safe; blocks only for a few /proc reads.
 */
final class Attacher {
    private static final Logger LOG = LoggerFactory.getLogger(Attacher.class);

    private final ProcessSupervisor owner;
    private final Native nat;
    private final ExitWatcher watcher;

    Attacher(ProcessSupervisor owner, Native nat, ExitWatcher watcher) {
        this.owner = owner;
        this.nat = nat;
        this.watcher = watcher;
    }

    SupervisedProcess attach(int pid, long startTime, Path statusFile, Path stdout, Path stderr,
            LogRotation rotation) throws ProcessGoneException {
        int pidfd = nat.libc.pidfd_open(pid, 0);
        String why = "process " + pid + " is gone";
        if (pidfd >= 0) {
            // the pidfd pins the process: once its start time matches, it is the one recorded
            java.util.Optional<ProcTable.Proc> proc = ProcTable.read(pid);
            if (proc.isPresent() && proc.get().startTime() == startTime && proc.get().state() != 'Z') {
                List<OutputPipe> pipes = rotation == null ? List.of() : heldPipes(pid, stdout, stderr, rotation);
                SupervisedProcess process = new SupervisedProcess(owner, pid, pidfd, pipes,
                        pipes.isEmpty() ? null : owner.currentLogWriter(), statusFile, false, startTime,
                        ProcTable.environValue(pid, ProcessSupervisor.TREE_VAR)
                                .map(v -> ProcessSupervisor.TREE_VAR + "=" + v).orElse(null));
                pipes.forEach(OutputPipe::register);
                try {
                    process.register(watcher);
                } catch (IllegalStateException e) {
                    nat.libc.close(pidfd);
                    throw new ProcessGoneException("cannot watch process " + pid + ": " + e.getMessage());
                }
                return process;
            }
            nat.libc.close(pidfd);
            if (proc.isPresent() && proc.get().startTime() != startTime) {
                why = "pid " + pid + " now belongs to another process (start time " + proc.get().startTime()
                        + ", recorded " + startTime + ")";
            } else if (proc.isPresent()) {
                why = "process " + pid + " has ended";
            }
        }
        java.util.Optional<ExitStatusFile.Status> status;
        try {
            status = ExitStatusFile.read(statusFile);
        } catch (java.io.IOException e) {
            throw new ProcessGoneException(why + "; " + e.getMessage());
        }
        if (status.isEmpty()) {
            throw new ProcessGoneException(why + " and recorded no exit status (" + statusFile + " is missing)");
        }
        return SupervisedProcess.ended(owner, pid, startTime, statusFile, owner.exitOf(status.get()),
                status.get().endedAtNanos());
    }

    /** The shim's held read ends of the task's stdout and stderr pipes, re-opened; empty when it holds none. */
    private List<OutputPipe> heldPipes(int pid, Path stdout, Path stderr,
            LogRotation rotation) {
        int out = openHeld(pid, 3);
        int err = out < 0 ? -1 : openHeld(pid, 4);
        if (err < 0) {
            owner.closeFd(out);
            LOG.warn("process {}: its output pipes are gone; its output is not collected", pid);
            return List.of();
        }
        LogWriter writer = owner.logWriter();
        return List.of(new OutputPipe(owner, watcher, writer, out, new RotatingFile(stdout, rotation),
                        rotation.bufferBytes()),
                new OutputPipe(owner, watcher, writer, err, new RotatingFile(stderr, rotation), rotation.bufferBytes()));
    }

    private int openHeld(int pid, int fd) {
        Path link = Path.of("/proc/" + pid + "/fd/" + fd);
        try {
            if (!Files.readSymbolicLink(link).toString().startsWith("pipe:")) {
                return -1;
            }
        } catch (java.io.IOException e) {
            return -1;
        }
        return nat.libc.open(Native.cstr(link.toString()), Native.O_RDONLY | Native.O_NONBLOCK | Native.O_CLOEXEC, 0);
    }

}
