package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.SafeFiles;
import io.drover.core.spec.Task;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The task's workload identities (its {@code identity} blocks, kept by the parser in Nomad's shape): each is signed
 * by this node's key ({@link IdentitySigner}) for this allocation and task, and handed over as Nomad's client
 * does: {@code env = true} sets {@code NOMAD_TOKEN} (the default identity) or {@code NOMAD_TOKEN_<name>};
 * {@code file = true} writes {@code secrets/nomad_token} or {@code secrets/nomad_<name>.jwt} (or
 * {@code filepath}, inside the task directory), 0600, never through a link. Runs after {@link TaskEnvHook} (it
 * reads the run's {@code NOMAD_*} variables). Every run signs afresh (a restart gets a fresh {@code iat});
 * {@code change_mode} has nothing to do, as the token is never renewed while a run lasts (a {@code ttl} shorter
 * than the run lets it expire, as Nomad's would without a renewal). Signing is synchronous on the serial executor;
 * files are written on the {@link HookPool}.
 */
final class IdentityHook implements TaskHook {
    private final TaskRunnerHost host;

    IdentityHook(TaskRunnerHost host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "identity";
    }

    /** The task's identities, the default one first, as the parser kept them. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> identities(Task task) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (task.cluster().get("Identity") instanceof Map<?, ?> m) {
            out.add((Map<String, Object>) m);
        }
        if (task.cluster().get("Identities") instanceof List<?> l) {
            l.forEach(i -> out.add((Map<String, Object>) i));
        }
        return out;
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        List<Map<String, Object>> ids = identities(prep.task());
        if (ids.isEmpty()) {
            return DONE;
        }
        IdentitySigner signer;
        try {
            signer = IdentitySigner.of(host.dirs().dataDir());
        } catch (RuntimeException e) {
            throw HookFailure.setup("failed to sign the workload identity: " + TaskHooks.describe(e));
        }
        Map<String, String> env = prep.env();
        Map<String, String> files = new LinkedHashMap<>();
        for (Map<String, Object> id : ids) {
            String name = (String) id.get("Name");
            boolean isDefault = "default".equals(name);
            @SuppressWarnings("unchecked")
            List<String> aud = (List<String>) id.getOrDefault("Audience", List.of("nomadproject.io"));
            Duration ttl = id.get("TTL") instanceof Number n ? Duration.ofNanos(n.longValue()) : null;
            String token = signer.sign(new IdentitySigner.Claims(env.getOrDefault("NOMAD_REGION", "global"),
                    env.getOrDefault("NOMAD_NAMESPACE", "default"), env.getOrDefault("NOMAD_JOB_ID", ""),
                    env.getOrDefault("NOMAD_GROUP_NAME", ""), host.allocId(), prep.task().name(), name, aud,
                    host.timers().now(), ttl));
            if (Boolean.TRUE.equals(id.get("Env"))) {
                env.put(isDefault ? "NOMAD_TOKEN" : "NOMAD_TOKEN_" + name, token);
            }
            if (Boolean.TRUE.equals(id.get("File"))) {
                String path = id.get("Filepath") instanceof String fp && !fp.isEmpty() ? fp
                        : isDefault ? "secrets/nomad_token" : "secrets/nomad_" + name + ".jwt";
                files.put(path, token);
            }
        }
        Map<String, String> vars = new LinkedHashMap<>(prep.vars());
        env.forEach((k, v) -> {
            if (k.startsWith("NOMAD_TOKEN")) {
                vars.put(k, v);
            }
        });
        prep.vars(vars);
        prep.config(new Interpolator(vars).applyAll(prep.task().config()));
        if (files.isEmpty()) {
            return DONE;
        }
        Path taskDir;
        try {
            taskDir = host.dirs().task(prep.task().name()).normalize();
        } catch (UnsafePathException e) {
            throw HookFailure.setup("failed to prepare the task: " + e.getMessage());
        }
        CompletableFuture<Void> running = HookPool.submit(() -> write(taskDir, files));
        CompletableFuture<Void> result = running.handleAsync((v, e) -> {
            if (e != null) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e;
                throw new java.util.concurrent.CompletionException(HookFailure.setup(
                        "failed to write the workload identity: " + TaskHooks.describe(cause)));
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

    /** Pool thread: each token into its file inside the task directory, 0600, replacing what was there. */
    private static void write(Path taskDir, Map<String, String> files) throws IOException, ArtifactException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path dest = SafeFiles.inside(taskDir, f.getKey(), "identity file");
            SafeFiles.mkdirs(taskDir, dest.getParent());
            SafeFiles.clearFile(taskDir, dest);
            Files.writeString(dest, f.getValue(), StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString("rw-------"));
        }
    }
}
