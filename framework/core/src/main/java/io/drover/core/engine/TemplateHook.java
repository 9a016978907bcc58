package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.ClientPath;
import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Template;
import io.drover.core.template.TemplateException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Renders the task's {@code template}s before its first run, after the artifacts (a {@code source} may come from
 * one), on the {@link HookPool}: never on the serial executor ({@link TemplateRender}). Each is written to its
 * destination with its {@code perms} (where {@link ClientPath} says: {@code ${NOMAD_ALLOC_DIR}/x}, {@code ../alloc/x}
 * and {@code /local/x} are Nomad's forms), never through a link; {@code env = true} templates
 * are read as {@code KEY=value} lines and added to the run's environment (and to what {@code ${...}} in the driver
 * config resolves). A template reads the task's environment ({@code env}) and files inside the allocation
 * ({@code file}, {@code source}: the task directory or {@code alloc/}, by {@link ClientPath}; a path that escapes,
 * or a link on the way, is refused), and the agent's service registry ({@code nomadService}, {@code nomadServices}:
 * {@link ServiceReads}, in the task's namespace).
 *
 * <p>After the first render the templates are watched ({@link TemplateWatch}): a changed input re-renders them and
 * their {@code change_mode} applies; a restart's run gets the env of the latest render. A failure of the first
 * render is a Setup Failure that fails the task (Nomad: a template that cannot render fails the task). A stop
 * cancels the render. A run a restarted agent re-attached is rendered again and watched from then on
 * ({@link #reattach}).
 */
final class TemplateHook implements TaskHook {
    /** What a re-render acts on: the task. Serial executor only. */
    interface Task {
        boolean dead();

        /** A restart that is not a failure, recording {@code event}; ignored unless the task runs. */
        void restart(TaskEvent event);

        /** Records {@code event} and sends {@code signal}; ignored unless the task runs. */
        void signal(TaskEvent event, String signal);

        /** Kills the task, which ends failed, with {@code reason}. */
        void fail(String reason);

        /** Records an event of the task (a change_script's end). */
        void record(TaskEvent event);

        /**
         * Runs {@code command} in the task's current run through its driver's exec ({@code TaskDriver.exec});
         * non-blocking, the stage may complete on any thread; fails when the task does not run.
         */
        java.util.concurrent.CompletionStage<io.drover.driver.api.ExitResult> exec(List<String> command,
                java.time.Duration timeout);
    }

    /** The first render: each template's output and inputs, and the env of the env = true ones. */
    private record First(List<TemplateWatch.Rendered> rendered, Map<String, String> env) {}

    /** The re-render of a re-attached run: the templates to watch, those whose output changed, the env. */
    private record Restored(List<TemplateWatch.Rendered> watched, List<Template> changed, Map<String, String> env) {}

    private final TaskRunnerHost host;
    private final Task task;
    private final java.util.random.RandomGenerator random;
    /** The env of the env = true templates, once rendered (serial executor). */
    private Map<String, String> renderedEnv;
    /** Whether a {@link TemplateWatch} runs for the task: one at most, from a first run or a re-attach. */
    private boolean watching;

    TemplateHook(TaskRunnerHost host, Task task) {
        this(host, task, java.util.concurrent.ThreadLocalRandom.current());
    }

    /** @param random draws the splay's delays ({@link TemplateWatch#splayDelay}) */
    TemplateHook(TaskRunnerHost host, Task task, java.util.random.RandomGenerator random) {
        this.host = host;
        this.task = task;
        this.random = random;
    }

    @Override
    public String name() {
        return "templates";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        List<Template> templates = prep.task().runtime().templates();
        if (templates.isEmpty()) {
            return DONE;
        }
        if (renderedEnv != null) {
            apply(prep, renderedEnv);
            return DONE;
        }
        TemplateRender.Dirs dirs = dirs(prep);
        Map<String, String> env = Map.copyOf(prep.env());
        Instant now = host.timers().now();
        CompletableFuture<First> work = new CompletableFuture<>();
        @SuppressWarnings("unchecked")
        CompletableFuture<Void>[] running = new CompletableFuture[1];
        attempt(templates, env, dirs, now, work, running, null);
        CompletableFuture<Void> result = work.handleAsync((first, e) -> {
            if (e != null) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e;
                String message = cause instanceof TemplateException || cause instanceof ArtifactException
                        ? "failed to render template: " + cause.getMessage()
                        : "failed to render template: " + TaskHooks.describe(cause);
                throw new java.util.concurrent.CompletionException(HookFailure.setup(message));
            }
            renderedEnv = first.env();
            apply(prep, first.env());
            List<TemplateWatch.Rendered> watched = first.rendered().stream().filter(r -> !r.template.once())
                    .toList();
            if (!watched.isEmpty() && !watching) { // once: rendered, never watched again
                watching = true;
                new TemplateWatch(host, task, vars -> renderedEnv = vars, watched, env, dirs, random).start();
            }
            return null;
        }, host.serial());
        result.whenComplete((v, e) -> {
            if (result.isCancelled()) {
                work.cancel(true);
                CompletableFuture<Void> r = running[0];
                if (r != null) {
                    r.cancel(true);
                }
            }
        });
        return result;
    }

    /**
     * One render of every template on the pool. A template that reads a Nomad variable that does not exist yet
     * waits for it, as Nomad's task does: one "Missing: ..." event says what it waits for (again when that
     * changes), and the render is tried again every {@link TemplateWatch#POLL} until it completes, fails otherwise,
     * or the task is stopped ({@code work} cancelled). Any thread.
     */
    private void attempt(List<Template> templates, Map<String, String> env, TemplateRender.Dirs dirs, Instant now,
            CompletableFuture<First> work, CompletableFuture<Void>[] running, String waitingFor) {
        if (work.isDone()) {
            return;
        }
        running[0] = HookPool.submit(() -> work.complete(renderAll(templates, env, dirs, host.timers().now())));
        running[0].whenComplete((v, e) -> {
            if (e == null) {
                return;
            }
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                    ? e.getCause() : e;
            if (cause instanceof TemplateException missing && missing.waiting() && !work.isDone()) {
                if (!missing.getMessage().equals(waitingFor)) {
                    host.serial().execute(() -> task.record(io.drover.core.event.TaskEvents.hookMessage(
                            io.drover.core.time.Nanos.of(host.timers().now()),
                            "Template: " + missing.getMessage())));
                }
                host.timers().schedule(TemplateWatch.POLL,
                        () -> attempt(templates, env, dirs, now, work, running, missing.getMessage()));
                return;
            }
            work.completeExceptionally(e);
        });
    }

    /**
     * A run a previous agent started, re-attached (Nomad's template hook on restore): the templates that are
     * watched are rendered again on the {@link HookPool}, against the run's env; one whose output differs from
     * what its destination holds (an input changed while no agent ran) is written and its change_mode applies, as
     * after any re-render; one that renders the same is left alone, so a re-attach that changed nothing neither
     * restarts nor signals the task. Then they are watched as after a first run. {@code once} templates are not
     * rendered again nor watched (their env is read back from their destination for the next run). A template
     * that can no longer render fails the stage: the task is killed, failed ({@link TaskStart}).
     */
    @Override
    public CompletionStage<Void> reattach(TaskPrep prep) throws HookFailure {
        List<Template> templates = prep.task().runtime().templates();
        if (templates.isEmpty() || renderedEnv != null) {
            return DONE;
        }
        TemplateRender.Dirs dirs = dirs(prep);
        Map<String, String> env = Map.copyOf(prep.env());
        Instant now = host.timers().now();
        CompletableFuture<Restored> work = new CompletableFuture<>();
        CompletableFuture<Void> running = HookPool.submit(() -> work.complete(restoreAll(templates, env, dirs, now)));
        running.whenComplete((v, e) -> {
            if (e != null) {
                work.completeExceptionally(e);
            }
        });
        CompletableFuture<Void> result = work.handleAsync((restored, e) -> {
            if (e != null) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e;
                throw new java.util.concurrent.CompletionException(
                        HookFailure.setup("Template failed: " + TaskHooks.describe(cause)));
            }
            if (renderedEnv != null || watching || task.dead()) {
                return null; // a new run rendered them meanwhile (and watches them), or the task is gone
            }
            renderedEnv = restored.env();
            if (!restored.watched().isEmpty()) {
                watching = true;
                new TemplateWatch(host, task, vars -> renderedEnv = vars, restored.watched(), env, dirs, random)
                        .startReattached(restored.changed());
            }
            return null;
        }, host.serial());
        result.whenComplete((v, e) -> {
            if (result.isCancelled()) {
                running.cancel(true);
            }
        });
        return result;
    }

    /** Where the templates read and write, and what they resolve, for the run {@code prep} prepares. */
    private TemplateRender.Dirs dirs(TaskPrep prep) throws HookFailure {
        Path taskDir;
        try {
            taskDir = host.dirs().task(prep.task().name()).normalize();
        } catch (UnsafePathException e) {
            throw HookFailure.setup("failed to prepare the task: " + e.getMessage());
        }
        return new TemplateRender.Dirs(new ClientPath(taskDir, host.dirs().shared()), prep.vars(),
                new ServiceReads(host.services(), prep.env().getOrDefault("NOMAD_NAMESPACE", "default"),
                        prep.env().getOrDefault("NOMAD_REGION", "global"), host.variables(), List.of(
                                prep.env().getOrDefault("NOMAD_JOB_ID", prep.env().getOrDefault("NOMAD_JOB_NAME", "")),
                                prep.env().getOrDefault("NOMAD_GROUP_NAME", ""), prep.task().name())));
    }

    /**
     * Pool thread: the re-attached run's templates rendered again; those watched whose output differs from their
     * destination written. {@code once} ones are only read back (their env), rendered only when their destination
     * is gone.
     */
    private static Restored restoreAll(List<Template> templates, Map<String, String> env, TemplateRender.Dirs dirs,
            Instant now) throws TemplateException, ArtifactException, IOException {
        Map<String, String> out = new LinkedHashMap<>();
        List<TemplateWatch.Rendered> watched = new ArrayList<>();
        List<Template> changed = new ArrayList<>();
        for (Template t : templates) {
            String current = TemplateRender.current(t, dirs);
            if (t.once() && current != null) {
                out.putAll(TemplateRender.env(t, current));
                continue;
            }
            Map<Path, String> inputs = new LinkedHashMap<>();
            Map<io.drover.core.template.NomadQuery, String> reads = new LinkedHashMap<>();
            String text = TemplateRender.render(t, env, dirs, now, inputs, reads);
            if (!text.equals(current)) {
                TemplateRender.write(t, dirs, text);
                if (!t.once()) {
                    changed.add(t);
                }
            }
            out.putAll(TemplateRender.env(t, text));
            if (!t.once()) {
                watched.add(new TemplateWatch.Rendered(t, text, inputs, reads));
            }
        }
        return new Restored(watched, changed, out);
    }

    /** Adds the templates' env to the run and resolves the driver config again against it. Serial executor. */
    private static void apply(TaskPrep prep, Map<String, String> vars) {
        if (vars.isEmpty()) {
            return;
        }
        prep.env().putAll(vars);
        Map<String, String> all = new LinkedHashMap<>(prep.vars());
        all.putAll(vars);
        prep.vars(all);
        prep.config(new Interpolator(all).applyAll(prep.task().config()));
    }

    /** Pool thread: renders and writes every template. */
    private static First renderAll(List<Template> templates, Map<String, String> env, TemplateRender.Dirs dirs,
            Instant now) throws TemplateException, ArtifactException, IOException {
        Map<String, String> out = new LinkedHashMap<>();
        List<TemplateWatch.Rendered> rendered = new ArrayList<>();
        for (Template t : templates) {
            Map<Path, String> inputs = new LinkedHashMap<>();
            Map<io.drover.core.template.NomadQuery, String> reads = new LinkedHashMap<>();
            String text = TemplateRender.render(t, env, dirs, now, inputs, reads);
            TemplateRender.write(t, dirs, text);
            out.putAll(TemplateRender.env(t, text));
            rendered.add(new TemplateWatch.Rendered(t, text, inputs, reads));
        }
        return new First(rendered, out);
    }
}
