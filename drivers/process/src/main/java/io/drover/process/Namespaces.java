package io.drover.process;

import java.util.ArrayList;
import java.util.List;

/**
 * The Linux namespaces the exit-status shim makes for a task (Nomad's {@code pid_mode} / {@code ipc_mode} =
 * {@code "private"}); see drover-shim.c. Needs the agent to be root and the task to run under the shim. Immutable.
 *
 * @param pid a private PID namespace, the task its PID 1, with a mount namespace of its own whose {@code /proc}
 *     shows that namespace only; the shim stays in the agent's namespace
 * @param ipc a private IPC namespace (System V IPC, POSIX message queues)
 */
public record Namespaces(boolean pid, boolean ipc) {
    /** The host's PID and IPC namespaces: what a task gets without the flags. */
    public static final Namespaces HOST = new Namespaces(false, false);

    /** The shim's options for these namespaces, in its argv before the status file. */
    List<String> shimArgs() {
        List<String> args = new ArrayList<>(2);
        if (pid) {
            args.add("--pid-ns");
        }
        if (ipc) {
            args.add("--ipc-ns");
        }
        return args;
    }

    public boolean any() {
        return pid || ipc;
    }
}
