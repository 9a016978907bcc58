package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.ChangeScript;
import io.drover.core.spec.Template;
import io.drover.core.template.NomadQuery;
import io.drover.core.template.TemplateException;
import io.drover.core.time.Nanos;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Re-renders a task's templates when what they read changes, as consul-template does for its dependencies
 * (one node has no Consul or Vault, so a {@code source} file, the files {@code {{ file "..." }}} reads and the
 * answers of the agent's service registry ({@code nomadService}, {@code nomadServices}) are all that can change;
 * the task's env is fixed for a run, so it is not watched). Every {@link #POLL} the inputs' {@link
 * TemplateRender#fingerprint fingerprints} and the registry's answers are compared (a stat per file, an in-memory
 * read per query, on the {@link HookPool}); a template whose
 * inputs changed is rendered again and, when its output differs, written (every path checked again, no link
 * followed). Then, as Nomad's template hook does: the env of {@code env = true} templates is taken for the next
 * run; after a random delay in [0, the largest {@code splay}) of the changed templates, {@code change_mode}
 * applies — {@code restart} (any changed template: "Restart Signaled", a restart that is not a failure),
 * {@code signal} (each distinct {@code change_signal}: "Template re-rendered"), {@code script} (each changed
 * template's {@code change_script}, inside the task through its driver's exec: {@link TemplateScripts}), {@code noop}
 * nothing. A template that can no longer render kills the task, failed ("Template failed: ..."). Templates with
 * {@code once} are not watched (their task's watch is never started). A run a restarted agent re-attached is
 * watched from then on ({@link #startReattached}). The splay's delay is drawn from the
 * {@link RandomGenerator} it is given (the engine's; a seeded one in tests).
 *
 * <p>Threads: no thread of its own and no thread per template. The poll is a timer that posts onto the
 * allocation's serial executor, which submits the stat-and-render work to the {@link HookPool}; its result comes
 * back on the serial executor. One poll at a time per task (the next is armed only when a poll and its change_mode
 * are done), so the per-template state is handed from one pool job to the next through the executors, never shared.
 * Ends when the task is dead. {@link #start} once.
 */
final class TemplateWatch {
    /** How often the inputs are compared. */
    static final Duration POLL = Duration.ofSeconds(1);

    /** One template and what its last render read and wrote. Pool work only (one poll at a time). */
    static final class Rendered {
        final Template template;
        String text;
        Map<Path, String> inputs;
        /** The inputs' fingerprints at the last poll. */
        Map<Path, String> seen;
        /** What the last render read of the service registry, and its answer then / at the last poll. */
        Map<NomadQuery, String> reads;
        Map<NomadQuery, String> readsSeen;
        /** wait: when the inputs first changed since the last render, and when last; null when unchanged. */
        Instant pendingSince;
        Instant lastChange;

        Rendered(Template template, String text, Map<Path, String> inputs, Map<NomadQuery, String> reads) {
            this.template = template;
            this.text = text;
            this.inputs = inputs;
            this.seen = inputs;
            this.reads = reads;
            this.readsSeen = reads;
        }
    }

    /** What one poll found: the templates whose output changed, and the env of all env templates if one did. */
    private record Changes(List<Template> changed, Map<String, String> env) {}

    private final TaskRunnerHost host;
    private final TemplateHook.Task task;
    private final Consumer<Map<String, String>> envChanged;
    private final List<Rendered> rendered;
    private final Map<String, String> env;
    private final TemplateRender.Dirs dirs;
    private final RandomGenerator random;

    /**
     * @param envChanged takes the env of the env templates after a re-render changed it (serial executor)
     * @param env the task's environment the templates read
     * @param random draws the splay's delay (serial executor only)
     */
    TemplateWatch(TaskRunnerHost host, TemplateHook.Task task, Consumer<Map<String, String>> envChanged,
            List<Rendered> rendered, Map<String, String> env, TemplateRender.Dirs dirs, RandomGenerator random) {
        this.host = host;
        this.task = task;
        this.envChanged = envChanged;
        this.rendered = rendered;
        this.env = env;
        this.dirs = dirs;
        this.random = random;
    }

    /** Arms the first poll. Serial executor; once (this or {@link #startReattached}). */
    void start() {
        arm(POLL);
    }

    /**
     * Starts watching the templates of a re-attached run, whose re-render found {@code changed} (templates whose
     * output differed from what their destination held): their change_mode applies as after any re-render (with
     * the splay), then the polls go on; none changed, the run is left alone and the first poll is armed. Serial
     * executor; once (this or {@link #start}).
     */
    void startReattached(List<Template> changed) {
        if (changed.isEmpty()) {
            start();
        } else {
            polled(new Changes(List.copyOf(changed), null), null);
        }
    }

    private void arm(Duration delay) {
        host.timers().schedule(delay, () -> host.serial().execute(this::poll));
    }

    /** Serial executor: a poll on the pool, unless the task is dead. */
    private void poll() {
        if (task.dead()) {
            return;
        }
        Instant now = host.timers().now();
        Changes[] out = new Changes[1];
        HookPool.submit(() -> out[0] = check(now))
                .whenComplete((v, e) -> host.serial().execute(() -> polled(out[0], e)));
    }

    /** Pool thread: compares, re-renders what changed, writes what differs. */
    private Changes check(Instant now) throws TemplateException, ArtifactException, IOException {
        List<Template> changed = new ArrayList<>();
        boolean envTemplateChanged = false;
        for (Rendered r : rendered) {
            if (!due(r, now)) {
                continue;
            }
            Map<Path, String> inputs = new LinkedHashMap<>();
            Map<NomadQuery, String> reads = new LinkedHashMap<>();
            String text;
            try {
                text = TemplateRender.render(r.template, env, dirs, now, inputs, reads);
            } catch (TemplateException gone) {
                if (!gone.waiting()) {
                    throw gone;
                }
                r.pendingSince = null; // a variable deleted: keep the last output, render again when it is back
                continue;
            }
            r.inputs = inputs;
            r.seen = inputs;
            r.reads = reads;
            r.readsSeen = reads;
            r.pendingSince = null;
            if (text.equals(r.text)) {
                continue;
            }
            TemplateRender.write(r.template, dirs, text);
            r.text = text;
            changed.add(r.template);
            envTemplateChanged |= r.template.env();
        }
        Map<String, String> newEnv = null;
        if (envTemplateChanged) {
            newEnv = new LinkedHashMap<>();
            for (Rendered r : rendered) {
                newEnv.putAll(TemplateRender.env(r.template, r.text));
            }
        }
        return new Changes(changed, newEnv);
    }

    /**
     * Whether the template is to be rendered again now: its inputs changed since its last render and, with
     * {@code wait}, have been quiet for {@code min} since their last change or changed first {@code max} ago
     * (consul-template's quiescence). Without {@code wait}, at the first poll that sees the change.
     */
    private boolean due(Rendered r, Instant now) {
        Map<Path, String> current = new LinkedHashMap<>();
        for (Path p : r.inputs.keySet()) {
            current.put(p, TemplateRender.fingerprint(p));
        }
        Map<NomadQuery, String> answers = new LinkedHashMap<>();
        for (NomadQuery q : r.reads.keySet()) {
            answers.put(q, dirs.services().fingerprint(q));
        }
        if (!current.equals(r.seen) || !answers.equals(r.readsSeen)) {
            r.seen = current;
            r.readsSeen = answers;
            r.lastChange = now;
            if (r.pendingSince == null) {
                r.pendingSince = now;
            }
        }
        if (r.pendingSince == null) {
            return false;
        }
        Duration min = r.template.waitMin();
        Duration max = r.template.waitMax();
        boolean quiet = Duration.between(r.lastChange, now).compareTo(min) >= 0;
        boolean overdue = !max.isZero() && Duration.between(r.pendingSince, now).compareTo(max) >= 0;
        return quiet || overdue;
    }

    /** Serial executor: what the poll found, applied (after the splay), then the next poll. */
    private void polled(Changes changes, Throwable err) {
        if (task.dead()) {
            return;
        }
        if (err != null) {
            Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                    ? err.getCause() : err;
            task.fail("Template failed: " + TaskHooks.describe(cause));
            return; // no more polls: the task is on its way out
        }
        if (changes.env() != null) {
            envChanged.accept(changes.env());
        }
        boolean restart = false;
        Set<String> signals = new LinkedHashSet<>();
        List<ChangeScript> scripts = new ArrayList<>();
        Duration splay = Duration.ZERO;
        for (Template t : changes.changed()) {
            switch (t.changeMode()) {
                case "restart" -> restart = true;
                case "signal" -> signals.add(t.changeSignal());
                case "script" -> scripts.add(t.changeScript());
                default -> {
                    continue; // noop
                }
            }
            if (t.splay() != null && t.splay().compareTo(splay) > 0) {
                splay = t.splay();
            }
        }
        if (!restart && signals.isEmpty() && scripts.isEmpty()) {
            arm(POLL);
            return;
        }
        Duration delay = splayDelay(splay, random);
        boolean restartIt = restart;
        host.timers().schedule(delay, () -> host.serial().execute(() -> {
            if (task.dead()) {
                return;
            }
            long at = Nanos.of(host.timers().now());
            if (restartIt) {
                task.restart(TaskEvents.restartSignaled(at, "Template with change_mode restart re-rendered"));
                arm(POLL);
                return;
            }
            for (String s : signals) {
                task.signal(TaskEvents.templateSignal(at, s), s);
            }
            // as Nomad: the next render is handled once every script ended
            TemplateScripts.run(host, task, scripts, () -> {
                if (!task.dead()) {
                    arm(POLL);
                }
            });
        }));
    }

    /**
     * How long a change_mode waits after a re-render: a random delay in [0, {@code splay}), uniformly drawn, as
     * Nomad's template hook does ({@code rand.Int63n(splay)}); none without a splay.
     */
    static Duration splayDelay(Duration splay, RandomGenerator random) {
        return splay.isZero() || splay.isNegative() ? Duration.ZERO : Duration.ofNanos(random.nextLong(splay.toNanos()));
    }
}
