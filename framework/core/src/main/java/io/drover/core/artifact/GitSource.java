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

    /**
     * Clones {@code repo} to {@code dest} (inside {@code root}). The destination is checked component by component
     * first, as every other getter's ({@link SafeFiles#mkdirs}: a link a task planted on the way is refused, never
     * followed); git then clones into the fetch's own scratch directory, never into a path a task could redirect,
     * and the clone is moved into place after the destination's parents are checked again.
     */
    static void cloneInto(Path repo, Map<String, String> options, Path dest, Path root, Path scratch,
            Duration timeout, String shown) throws IOException, ArtifactException, InterruptedException {
        checkDestination(root, dest, shown);
        Path clone = scratch.resolve("clone");
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
        cmd.addAll(List.of("--", "file://" + repo, clone.toString()));
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
        checkDestination(root, dest, shown);
        if (Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(dest); // empty, checked above
        }
        Files.move(clone, dest);
    }

    /**
     * The destination's parents are directories, not links, created where missing (one component at a time); the
     * destination itself is absent or an empty directory, not a link.
     */
    private static void checkDestination(Path root, Path dest, String shown) throws IOException, ArtifactException {
        try {
            if (dest.normalize().equals(root.normalize())) {
                throw new ArtifactException("destination is not empty");
            }
            SafeFiles.mkdirs(root, dest.getParent());
            if (Files.isSymbolicLink(dest)) {
                throw new ArtifactException(SafeFiles.shown(root, dest) + " is a symbolic link; refusing to follow it");
            }
            if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                if (!Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS)) {
                    throw new ArtifactException(SafeFiles.shown(root, dest) + " is not a directory");
                }
                try (var entries = Files.list(dest)) {
                    if (entries.findAny().isPresent()) {
                        throw new ArtifactException("destination is not empty");
                    }
                }
            }
        } catch (ArtifactException e) {
            throw new ArtifactException("git artifact " + shown + ": " + e.getMessage());
        }
    }
}
