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
}
