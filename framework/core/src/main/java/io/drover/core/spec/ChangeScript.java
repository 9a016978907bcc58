package io.drover.core.spec;

import java.time.Duration;
import java.util.List;

/**
 * A template's {@code change_script} (with {@code change_mode = "script"}): what runs inside the task, through its
 * driver's exec, when the template's output changed — as Nomad's template hook does. Immutable.
 *
 * @param command the program, as the task would name it (looked up on the task's PATH, in its chroot for exec)
 * @param args its arguments
 * @param timeout how long it may run; then it is killed and counts as failed (default 5s, Nomad's)
 * @param failOnError a script that cannot run, fails or times out kills the task, which fails ("Template script
 *     failed, task is being killed"); otherwise it is only a {@code Task hook failed} event
 */
public record ChangeScript(String command, List<String> args, Duration timeout, boolean failOnError) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public ChangeScript {
        args = List.copyOf(args);
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    }

    /** The command and its arguments, argv. */
    public List<String> argv() {
        List<String> all = new java.util.ArrayList<>(args.size() + 1);
        all.add(command);
        all.addAll(args);
        return List.copyOf(all);
    }
}
