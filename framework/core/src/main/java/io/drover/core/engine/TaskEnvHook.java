package io.drover.core.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * The task's environment and driver config: Nomad's runtime variables (from the allocation), then the task's
 * {@code env} with {@code ${...}} references to them (and to {@code ${meta.<key>}}) resolved, then the driver
 * config resolved against both. {@link TaskPrep#vars()} keeps what later hooks (artifact sources) interpolate.
 * Every run (the environment can change between runs: a poststop's result variables). Synchronous, pure but for
 * the host lookup; idempotent. A re-attached run gets the same env again (what its templates read).
 */
final class TaskEnvHook implements TaskHook {
    private final TaskRunnerHost host;

    TaskEnvHook(TaskRunnerHost host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "env";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        Map<String, String> env = prep.env();
        try {
            env.putAll(host.runtimeEnv(prep.task()));
        } catch (UnsafePathException | RuntimeException e) {
            throw HookFailure.setup("failed to prepare the task: " + TaskHooks.describe(e));
        }
        Map<String, String> meta = new LinkedHashMap<>();
        host.meta(prep.task()).forEach((k, v) -> meta.put("meta." + k, v));
        // the node's attr.*, node.* and meta.* first: the task's env and the job's meta win, as Nomad's env map does
        Map<String, String> vars = new LinkedHashMap<>(host.nodeVars());
        vars.putAll(env);
        vars.putAll(meta);
        Interpolator runtime = new Interpolator(vars);
        Map<String, String> taskEnv = new LinkedHashMap<>();
        prep.task().env().forEach((k, v) -> taskEnv.put(k, runtime.apply(v)));
        env.putAll(taskEnv);
        vars.putAll(taskEnv);
        vars.putAll(meta);
        prep.config(new Interpolator(vars).applyAll(prep.config()));
        prep.vars(vars);
        return DONE;
    }

    /** The env of a re-attached run, built as for a start: the templates' re-render reads it. */
    @Override
    public CompletionStage<Void> reattach(TaskPrep prep) throws HookFailure {
        return prestart(prep);
    }
}
