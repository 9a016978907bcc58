package io.drover.core.artifact;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code git::<local path>}: {@code git clone --no-local} (objects copied, never hard-linked to the source) of a
 * world-readable local repository, with a clean environment (no system or user git config, no prompt), bounded in
 * time. Options {@code ref} and {@code depth} as go-getter's. Blocking: waits for the git process on the calling
 * (pool) thread; interrupting it kills the process.
 */
final class GitSource {
    private GitSource() {}

    static void cloneInto(Path repo, Map<String, String> options, Path dest, Path scratch, Duration timeout,
            String shown) throws IOException, ArtifactException, InterruptedException {
        if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
            try (var entries = Files.list(dest)) {
                if (entries.findAny().isPresent()) {
                    throw new ArtifactException("git artifact " + shown + ": destination is not empty");
                }
            }
            Files.delete(dest);
        }
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "protocol.file.allow=always", "clone", "--quiet",
                "--no-local"));
        String ref = options.get("ref");
        if (ref != null) {
            if (ref.startsWith("-")) {
                throw new ArtifactException("git artifact " + shown + ": bad ref \"" + ref + "\"");
            }
            cmd.addAll(List.of("--branch", ref));
        }
        String depth = options.get("depth");
        if (depth != null) {
            if (!depth.matches("[1-9][0-9]{0,6}")) {
                throw new ArtifactException("git artifact " + shown + ": depth must be a positive number");
            }
            cmd.addAll(List.of("--depth", depth));
        }
        cmd.addAll(List.of("--", "file://" + repo, dest.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(scratch.resolve("git.out").toFile());
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
        pb.environment().put("HOME", scratch.toString());
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        pb.environment().put("LANG", "C");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new ArtifactException("git artifact " + shown + ": cannot run git (" + e.getMessage() + ")");
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new ArtifactException("git artifact " + shown + ": git clone took longer than the time limit");
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        }
        if (p.exitValue() != 0) {
            String out = new String(Files.readAllBytes(scratch.resolve("git.out")), StandardCharsets.UTF_8).strip();
            String line = out.lines().reduce((a, b) -> b).orElse("exit code " + p.exitValue());
            throw new ArtifactException("git artifact " + shown + ": " + line);
        }
    }
}
