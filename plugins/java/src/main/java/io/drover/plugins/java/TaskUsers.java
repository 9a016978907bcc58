package io.drover.plugins.java;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.PluginConfigException;
import io.drover.process.TaskUser;
import java.util.Optional;

/**
 * Which user a java task runs as, from the task's {@code user}, the plugin's {@code default_user} and
 * {@code allow_root}, and the user the agent runs as. Immutable; {@link #resolve} reads {@code /etc/passwd}
 * (small, blocking for microseconds); any thread.
 *
 * <ul>
 *   <li>Agent as root: the task's {@code user}, else {@code default_user} (default {@code nobody}), looked up in
 *       {@code /etc/passwd}; the shim drops the child JVM to its uid and primary gid. A user that is uid 0 is
 *       refused unless {@code allow_root = true}, and then the JVM simply stays root.</li>
 *   <li>Agent as another user (a developer's machine): no drop is possible, so tasks run as the agent's user, which
 *       is not root; a task whose {@code user} names anyone else is refused.</li>
 * </ul>
 */
final class TaskUsers {
    private final JavaPluginConfig config;
    private final int agentUid;

    /**
     * The decision for one task.
     *
     * @param dropTo the user the shim drops to; null: the JVM runs as the agent's user
     * @param problem why the task may not run (its key is {@code user}); null when it may
     */
    record Resolution(TaskUser dropTo, ConfigProblem problem) {}

    private TaskUsers(JavaPluginConfig config, int agentUid) {
        this.config = config;
        this.agentUid = agentUid;
    }

    /**
     * @param agentUid the agent's effective uid (empty: unknown, treated as not root)
     * @throws PluginConfigException when the agent is root and {@code default_user} does not exist, or is root
     *     without {@code allow_root}: a bad agent config, the agent does not start
     */
    static TaskUsers create(JavaPluginConfig config, Optional<Integer> agentUid) throws PluginConfigException {
        TaskUsers users = new TaskUsers(config, agentUid.orElse(-1));
        if (users.agentUid == 0) {
            Optional<TaskUser> user = TaskUser.lookup(config.defaultUser());
            if (user.isEmpty()) {
                throw new PluginConfigException("default_user", noSuchUser(config.defaultUser()));
            }
            if (user.get().isRoot() && !config.allowRoot()) {
                throw new PluginConfigException("default_user", isRoot(config.defaultUser()));
            }
        }
        return users;
    }

    /** @param taskUser the task's {@code user}, null when it names none */
    Resolution resolve(String taskUser) {
        String name = taskUser != null ? taskUser : config.defaultUser();
        if (agentUid != 0) {
            if (taskUser == null) {
                return new Resolution(null, null);
            }
            Optional<TaskUser> user = TaskUser.lookup(name);
            if (user.isPresent() && user.get().uid() == agentUid) {
                return new Resolution(null, null);
            }
            return problem("cannot run as \"" + name + "\": the agent runs as uid " + agentUid
                    + ", not root, so its java tasks run as itself");
        }
        Optional<TaskUser> user = TaskUser.lookup(name);
        if (user.isEmpty()) {
            return problem(noSuchUser(name));
        }
        if (user.get().isRoot()) {
            return config.allowRoot() ? new Resolution(null, null) : problem(isRoot(name));
        }
        return new Resolution(user.get(), null);
    }

    /** A one-line description for health: who the tasks run as by default. */
    String describeDefault() {
        return agentUid == 0 ? "tasks run as " + config.defaultUser() : "tasks run as the agent's user (uid "
                + (agentUid < 0 ? "?" : Integer.toString(agentUid)) + ", not root: no user switch)";
    }

    private static Resolution problem(String message) {
        return new Resolution(null, new ConfigProblem("user", message));
    }

    private static String noSuchUser(String name) {
        return "no such user \"" + name + "\" on this machine (/etc/passwd)";
    }

    private static String isRoot(String name) {
        return "\"" + name + "\" is root (uid 0): " + JavaPluginConfig.ROOT_HINT;
    }
}
