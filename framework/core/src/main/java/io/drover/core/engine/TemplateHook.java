package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.SafeFiles;
import io.drover.core.spec.Template;
import io.drover.core.template.GoTemplate;
import io.drover.core.template.TemplateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Renders the task's {@code template}s before its first run, after the artifacts (a {@code source} may come from
 * one), on the {@link HookPool}: never on the serial executor. Each is written to its destination inside the task
 * directory with its {@code perms}, never through a link; {@code env = true} templates are read as {@code KEY=value}
 * lines and added to the run's environment (and to what {@code ${...}} in the driver config resolves). A template
 * reads the task's environment ({@code env}) and files inside the allocation ({@code file}, {@code source}; a
 * path that leaves it, through {@code ..} or a link, is refused).
 *
 * <p>Rendered once per task (nothing re-renders: there is no Consul or Vault to watch, and a change of a
 * {@code source} file is not watched), so {@code change_mode}, {@code change_signal} and {@code splay} have no
 * effect; a restart re-applies the env of the first render. A failure is a Setup Failure that fails the task
 * (Nomad: a template that cannot render fails the task). A stop cancels the render.
 */
final class TemplateHook implements TaskHook {
    private final TaskRunnerHost host;
    /** The env of the env = true templates, once rendered (serial executor). */
    private Map<String, String> renderedEnv;

    TemplateHook(TaskRunnerHost host) {
        this.host = host;
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
        Path taskDir;
        try {
            taskDir = host.dirs().task(prep.task().name()).normalize();
        } catch (UnsafePathException e) {
            throw HookFailure.setup("failed to prepare the task: " + e.getMessage());
        }
        Path allocRoot = host.dirs().root().normalize();
        Map<String, String> env = Map.copyOf(prep.env());
        Instant now = host.timers().now();
        CompletableFuture<Map<String, String>> work = new CompletableFuture<>();
        CompletableFuture<Void> running = HookPool.submit(() -> work.complete(renderAll(templates, env, taskDir,
                allocRoot, now)));
        running.whenComplete((v, e) -> {
            if (e != null) {
                work.completeExceptionally(e);
            }
        });
        CompletableFuture<Void> result = work.handleAsync((vars, e) -> {
            if (e != null) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e;
                String message = cause instanceof TemplateException || cause instanceof ArtifactException
                        ? "failed to render template: " + cause.getMessage()
                        : "failed to render template: " + TaskHooks.describe(cause);
                throw new java.util.concurrent.CompletionException(HookFailure.setup(message));
            }
            renderedEnv = vars;
            apply(prep, vars);
            return null;
        }, host.serial());
        result.whenComplete((v, e) -> {
            if (result.isCancelled()) {
                running.cancel(true);
            }
        });
        return result;
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

    /** Pool thread: renders and writes every template; returns the env of those with env = true. */
    private static Map<String, String> renderAll(List<Template> templates, Map<String, String> env, Path taskDir,
            Path allocRoot, Instant now) throws TemplateException, ArtifactException, IOException {
        Map<String, String> out = new LinkedHashMap<>();
        GoTemplate.Reader reader = new GoTemplate.Reader() {
            @Override
            public String env(String name) {
                return env.get(name);
            }

            @Override
            public String file(String path) throws TemplateException {
                return read(taskDir, allocRoot, path);
            }
        };
        for (Template t : templates) {
            String name = t.source() != null ? t.source() : t.destination();
            String text = t.data() != null ? t.data() : read(taskDir, allocRoot, t.source());
            String rendered = GoTemplate.parse(name, text, t.leftDelimiter(), t.rightDelimiter())
                    .render(reader, now, t.errorOnMissingKey());
            Path dest = SafeFiles.inside(taskDir, t.destination(), "template destination");
            SafeFiles.mkdirs(taskDir, dest.getParent());
            SafeFiles.clearFile(taskDir, dest);
            Files.writeString(dest, rendered, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            Files.setPosixFilePermissions(dest, permissions(t.perms()));
            if (t.env()) {
                out.putAll(EnvFile.parse(rendered, name));
            }
        }
        return out;
    }

    /** A file a template reads: relative to the task directory, and inside the allocation once links resolve. */
    private static String read(Path taskDir, Path allocRoot, String path) throws TemplateException {
        Path p = path.startsWith("/") ? Path.of(path).normalize() : taskDir.resolve(path).normalize();
        try {
            Path real = p.toRealPath();
            if (!real.startsWith(allocRoot.toRealPath())) {
                throw new TemplateException("file \"" + path + "\" is outside the allocation directory");
            }
            long size = Files.size(real);
            if (size > 16 << 20) {
                throw new TemplateException("file \"" + path + "\" is larger than 16 MiB");
            }
            return Files.readString(real, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new TemplateException("file \"" + path + "\" does not exist");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new TemplateException("file \"" + path + "\" cannot be read: " + e.getMessage());
        }
    }

    private static java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions(int mode) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> p =
                java.util.EnumSet.noneOf(java.nio.file.attribute.PosixFilePermission.class);
        java.nio.file.attribute.PosixFilePermission[] all = java.nio.file.attribute.PosixFilePermission.values();
        for (int i = 0; i < 9; i++) {
            if ((mode & (0400 >> i)) != 0) {
                p.add(all[i]);
            }
        }
        return p;
    }
}
