package io.drover.core.engine;

import io.drover.core.event.TaskEvents;
import io.drover.core.spec.ChangeScript;
import io.drover.core.time.Nanos;
import io.drover.driver.api.ExitResult;
import java.util.List;

/**
 * {@code change_mode = "script"}: the re-rendered templates' {@code change_script}s, run inside the task through its
 * driver's exec ({@code TaskDriver.exec}), all at once, as Nomad's template hook runs them. Each one's end is an event
 * in Nomad's words: {@code Task hook message} "Template successfully ran script CMD with arguments: [ARGS]. Exit
 * code: 0", or {@code Task hook failed} "Template failed to run script CMD with arguments [ARGS] on change: WHY. Exit
 * code: 0" (it could not run, timed out, or the driver has no exec: "ExecTask is not supported by this driver") or
 * "Template ran script CMD with arguments [ARGS] on change but it exited with code: N"; with {@code fail_on_error} a
 * failure then kills the task, which fails ("Template script failed, task is being killed").
 *
 * <p>Serial executor of the allocation: {@link #run} starts the execs (non-blocking) and each end hops back onto it;
 * {@code done} runs there once every script ended. No thread of its own.
 */
final class TemplateScripts {
    private TemplateScripts() {}

    /** Runs {@code scripts} in the task; {@code done} once all ended (at once when there are none). */
    static void run(TaskRunnerHost host, TemplateHook.Task task, List<ChangeScript> scripts, Runnable done) {
        if (scripts.isEmpty()) {
            done.run();
            return;
        }
        int[] left = {scripts.size()};
        for (ChangeScript s : scripts) {
            task.exec(s.argv(), s.timeout()).whenComplete((r, e) -> host.serial().execute(() -> {
                ended(host, task, s, r, e);
                if (--left[0] == 0) {
                    done.run();
                }
            }));
        }
    }

    /** Serial executor: one script's end, as an event; with fail_on_error a failure kills the task. */
    private static void ended(TaskRunnerHost host, TemplateHook.Task task, ChangeScript s, ExitResult r, Throwable e) {
        if (task.dead()) {
            return;
        }
        long at = Nanos.of(host.timers().now());
        String args = "[" + String.join(" ", s.args()) + "]";
        String failure = null;
        if (e != null) {
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                    ? e.getCause() : e;
            failure = "Template failed to run script " + s.command() + " with arguments " + args + " on change: "
                    + TaskHooks.describe(cause) + ". Exit code: 0";
        } else if (!r.successful()) {
            failure = "Template ran script " + s.command() + " with arguments " + args
                    + " on change but it exited with code: " + r.exitCode();
        }
        if (failure == null) {
            task.record(TaskEvents.hookMessage(at, "Template successfully ran script " + s.command()
                    + " with arguments: " + args + ". Exit code: 0"));
            return;
        }
        task.record(TaskEvents.hookFailed(at, failure));
        if (s.failOnError()) {
            task.fail("Template script failed, task is being killed");
        }
    }
}
