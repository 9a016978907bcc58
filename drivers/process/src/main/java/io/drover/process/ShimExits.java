package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.nio.file.Path;
import java.util.List;

/** What a shim's status file adds to its wait status, for {@link SupervisedProcess}. Stateless; any thread. */
final class ShimExits {
    private ShimExits() {}

    /** The processes the shim's status file says it killed after its task ended (as gone entries); never throws. */
    static List<ProcTable.Proc> killedByShim(Path statusFile, int pid) {
        try {
            return ExitStatusFile.read(statusFile).map(ExitStatusFile.Status::killed).orElse(List.of()).stream()
                    .map(p -> new ProcTable.Proc(p, "", 'X', pid, 0, 0, 0)).toList();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    /**
     * The task's exit: the shim ends the way its task did, so its own wait status is the task's, except for exit
     * codes 127 (maybe a failed exec: the file has the errno) and 125 (the shim failed), for which the status file
     * is read. Without a shim, or when the file says nothing (a SIGKILL of the group kills the shim with the
     * task), the wait status is the answer.
     */
    static ExitResult fromStatusFile(ProcessSupervisor owner, Path statusFile, ExitResult shimExit) {
        if (statusFile == null || shimExit.signal() != 0
                || (shimExit.exitCode() != 127 && shimExit.exitCode() != 125)) {
            return shimExit;
        }
        try {
            return ExitStatusFile.read(statusFile).map(owner::exitOf).orElse(shimExit);
        } catch (java.io.IOException e) {
            return new ExitResult(shimExit.exitCode(), shimExit.signal(), false, e.getMessage());
        }
    }

    /**
     * The exit of an attached (re-attached) process that ended: only its status file can tell how.
     *
     * @param killSent this agent SIGKILLed its group after re-attaching (the shim then died with the task)
     * @throws IllegalStateException when the exit is unknown (no status recorded, or the file unreadable)
     */
    static ExitResult ofAttached(ProcessSupervisor owner, Path statusFile, int pid, boolean killSent) {
        try {
            java.util.Optional<ExitStatusFile.Status> status = ExitStatusFile.read(statusFile);
            if (status.isPresent()) {
                return owner.exitOf(status.get());
            }
            if (killSent) {
                return new ExitResult(137, 9, false, "killed by the agent with SIGKILL; the task's shim died "
                        + "with it and recorded no status");
            }
            throw new IllegalStateException("process " + pid + " ended without recording its exit status in "
                    + statusFile + "; its exit is unknown");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e.getMessage() + "; the exit of process " + pid + " is unknown");
        }
    }
}
