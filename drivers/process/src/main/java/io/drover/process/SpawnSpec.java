package io.drover.process;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What to start: the command as the user wrote it (resolved with {@link CommandResolver} against {@code env}'s
 * PATH and {@code workDir}), its arguments, its whole environment (nothing is inherited from the agent), its
 * work directory and the files its stdout and stderr are appended to. Immutable.
 *
 * @param command a name looked up on PATH, or a path (relative ones are relative to {@code workDir})
 * @param args argv[1..]
 * @param stdout with {@code rotation}: the first file, {@code <base>.0}; without: the file appended to
 * @param rotation null: the task writes its output files itself (opened O_APPEND by the spawn); otherwise its
 *     output goes through pipes to rotating files, see {@link LogRotation}
 * @param statusFile null: the task is the spawned process itself (its exit is known only to this agent);
 *     otherwise the task runs under the exit-status shim, which writes how it ended to this file even when no
 *     agent runs any more (see {@link ProcessSupervisor#attach}); its directory must exist
 * @param user null: the task runs as the agent's user; otherwise (only with a {@code statusFile}, the agent being
 *     root) the shim drops the task to this user right before its execve
 * @param namespaces the PID and IPC namespaces the shim makes for the task ({@link Namespaces#HOST}: none; other
 *     values only with a {@code statusFile}, the agent being root)
 * @param cgroups the cgroup directories (one per v1 controller, {@link TaskCgroup#dirs()}) the shim's child joins
 *     before anything else, so that no instruction of the task runs outside them; empty: none (only with a
 *     {@code statusFile}: without the shim nothing could join before the exec)
 */
public record SpawnSpec(String command, List<String> args, Map<String, String> env, Path workDir, Path stdout,
        Path stderr, LogRotation rotation, Path statusFile, TaskUser user, Namespaces namespaces,
        List<Path> cgroups) {

    /** In no cgroup of its own. */
    public SpawnSpec(String command, List<String> args, Map<String, String> env, Path workDir, Path stdout,
            Path stderr, LogRotation rotation, Path statusFile, TaskUser user, Namespaces namespaces) {
        this(command, args, env, workDir, stdout, stderr, rotation, statusFile, user, namespaces, List.of());
    }

    /** In the host's namespaces. */
    public SpawnSpec(String command, List<String> args, Map<String, String> env, Path workDir, Path stdout,
            Path stderr, LogRotation rotation, Path statusFile, TaskUser user) {
        this(command, args, env, workDir, stdout, stderr, rotation, statusFile, user, Namespaces.HOST);
    }

    /** As the agent's user. */
    public SpawnSpec(String command, List<String> args, Map<String, String> env, Path workDir, Path stdout,
            Path stderr, LogRotation rotation, Path statusFile) {
        this(command, args, env, workDir, stdout, stderr, rotation, statusFile, null);
    }

    /** No shim. */
    public SpawnSpec(String command, List<String> args, Map<String, String> env, Path workDir, Path stdout,
            Path stderr, LogRotation rotation) {
        this(command, args, env, workDir, stdout, stderr, rotation, null);
    }

    /** Output appended straight to the files, no rotation. */
    public SpawnSpec(String command, List<String> args, Map<String, String> env, Path workDir, Path stdout,
            Path stderr) {
        this(command, args, env, workDir, stdout, stderr, null, null);
    }

    public SpawnSpec {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        workDir = workDir.toAbsolutePath();
        stdout = stdout.toAbsolutePath();
        stderr = stderr.toAbsolutePath();
        statusFile = statusFile == null ? null : statusFile.toAbsolutePath();
        if (user != null && statusFile == null) {
            throw new IllegalArgumentException("a task user needs the shim (a status file): " + user.name());
        }
        namespaces = namespaces == null ? Namespaces.HOST : namespaces;
        if (namespaces.any() && statusFile == null) {
            throw new IllegalArgumentException("private namespaces need the shim (a status file): " + namespaces);
        }
        cgroups = cgroups == null ? List.of() : List.copyOf(cgroups);
        if (!cgroups.isEmpty() && statusFile == null) {
            throw new IllegalArgumentException("joining cgroups needs the shim (a status file): " + cgroups);
        }
        for (Path dir : cgroups) {
            if (!dir.isAbsolute()) {
                throw new IllegalArgumentException("a cgroup directory must be absolute: " + dir);
            }
        }
    }

    /** This spec with {@code env} instead of its environment. */
    public SpawnSpec withEnv(Map<String, String> env) {
        return new SpawnSpec(command, args, env, workDir, stdout, stderr, rotation, statusFile, user, namespaces,
                cgroups);
    }

    /** This spec with the task joining {@code dirs} (see {@link #cgroups}). */
    public SpawnSpec withCgroups(List<Path> dirs) {
        return new SpawnSpec(command, args, env, workDir, stdout, stderr, rotation, statusFile, user, namespaces,
                dirs);
    }
}
