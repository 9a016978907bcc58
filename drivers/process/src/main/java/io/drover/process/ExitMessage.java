package io.drover.process;

import java.util.List;
import java.util.stream.Collectors;

/** The message of an exit that the host shows in its Terminated event. Pure. */
final class ExitMessage {
    private ExitMessage() {}

    /**
     * Empty when nothing is wrong; else e.g. {@code 1 process of the task survived SIGKILL: 4242 (sleep, state
     * D); 65536 bytes of output dropped (disk too slow)}.
     */
    static String of(List<ProcTable.Proc> survivors, long droppedBytes) {
        StringBuilder sb = new StringBuilder();
        if (!survivors.isEmpty()) {
            sb.append(survivors.size()).append(survivors.size() == 1 ? " process" : " processes")
                    .append(" of the task survived SIGKILL: ")
                    .append(survivors.stream().map(p -> p.pid() + " (" + p.comm() + ", state " + p.state() + ")")
                            .collect(Collectors.joining(", ")));
        }
        if (droppedBytes > 0) {
            if (sb.length() > 0) {
                sb.append("; ");
            }
            sb.append(droppedBytes).append(" bytes of output dropped (disk too slow)");
        }
        return sb.toString();
    }

    /**
     * The exit as reported: {@code r} with {@code outside} (a SIGKILL the agent did not send, {@link OutsideKill}),
     * its own message, and {@link #of} joined by "; "; {@code r} itself when nothing is added.
     */
    static io.drover.driver.api.ExitResult compose(io.drover.driver.api.ExitResult r, String outside,
            List<ProcTable.Proc> survivors, long droppedBytes) {
        String message = join(outside, join(r.message(), of(survivors, droppedBytes)));
        return message.equals(r.message()) ? r
                : new io.drover.driver.api.ExitResult(r.exitCode(), r.signal(), r.oomKilled(), message);
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
    }
}
