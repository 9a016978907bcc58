package io.drover.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Names a SIGKILL that ended a task although the agent did not send one (no tree kill was started for it): an
 * outside {@code kill -9}, or the kernel's OOM killer, which this tells apart only by the machine-wide
 * {@code oom_kill} counter of {@code /proc/vmstat} having risen between the task's start and its exit (the counter
 * is not per task: it proves that the OOM killer fired meanwhile, not that it chose this task). Pure but for
 * {@link #oomKills()}, one small file read; any thread.
 */
final class OutsideKill {
    static final String KILLED = "killed by a SIGKILL the agent did not send";
    private static final Path VMSTAT = Path.of("/proc/vmstat");

    private OutsideKill() {}

    /** The kernel's {@code oom_kill} counter, -1 when it cannot be read (no /proc/vmstat, a kernel before 4.13). */
    static long oomKills() {
        try {
            return oomKills(Files.readString(VMSTAT, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static long oomKills(String vmstat) {
        for (String line : vmstat.split("\n")) {
            if (line.startsWith("oom_kill ")) {
                return Long.parseLong(line.substring("oom_kill ".length()).trim());
            }
        }
        return -1;
    }

    /**
     * E.g. {@code killed by a SIGKILL the agent did not send; the kernel's OOM killer fired 2 times between the
     * task's start and its exit (oom_kill in /proc/vmstat)}.
     *
     * @param since what the counter's first reading was taken at: "the task's start", or "its re-attach"
     */
    static String message(long oomBefore, long oomAfter, String since) {
        String window = " between " + since + " and its exit";
        if (oomBefore < 0 || oomAfter < 0) {
            return KILLED + "; whether the kernel's OOM killer fired is unknown (no oom_kill in /proc/vmstat)";
        }
        long n = oomAfter - oomBefore;
        if (n <= 0) {
            return KILLED + "; the kernel's OOM killer did not fire" + window;
        }
        return KILLED + "; the kernel's OOM killer fired " + (n == 1 ? "once" : n + " times") + window
                + " (oom_kill in /proc/vmstat)";
    }

    private static final java.util.regex.Pattern LEADING = java.util.regex.Pattern.compile("^" + KILLED
            + "; (?:whether the kernel's OOM killer fired is unknown \\(no oom_kill in /proc/vmstat\\)"
            + "|the kernel's OOM killer did not fire between .+? and its exit"
            + "|the kernel's OOM killer fired .+? between .+? and its exit \\(oom_kill in /proc/vmstat\\))(?:; |$)");

    /**
     * {@code message} without a leading {@link #message} (and its "; "): for an exit whose killer is known after
     * all (the task's own cgroup counted the OOM kill), where "a SIGKILL the agent did not send" says less.
     */
    static String strip(String message) {
        return LEADING.matcher(message).replaceFirst("");
    }
}
