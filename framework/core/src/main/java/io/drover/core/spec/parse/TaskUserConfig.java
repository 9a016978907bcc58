package io.drover.core.spec.parse;

import io.drover.core.spec.Task;
import io.drover.driver.api.schema.ConfigSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A task's {@code user} (Nomad's task key), for the drivers: a driver whose config schema has a {@code user} option
 * (the java driver: it drops the JVM to that user, see docs/jobs.md) gets the task's user there, unless the
 * config names one itself; that driver then checks it (an unknown user is its one line, at registration). A driver
 * without one runs every task as the user it always does (exec: nobody; raw_exec, mock: the agent's user), so
 * a task {@code user} is accepted only when it names that user (nothing to change: {@code user = "root"} on
 * raw_exec under a root agent) and refused otherwise, naming the key. Pure; any thread.
 */
public final class TaskUserConfig {
    private TaskUserConfig() {}

    /** The task's {@code user}, null when it names none. */
    public static String user(Task task) {
        return task.cluster().get("User") instanceof String s ? s : null;
    }

    /** The config the driver gets: {@code config} with the task's user as {@code user} where the schema takes it. */
    public static Map<String, Object> apply(Task task, Map<String, Object> config, Optional<ConfigSchema> schema) {
        String user = user(task);
        if (user == null || config.containsKey("user") || schema == null || schema.isEmpty()
                || schema.get().key("user").isEmpty()) {
            return config;
        }
        Map<String, Object> out = new LinkedHashMap<>(config);
        out.put("user", user);
        return out;
    }

    /**
     * Why the task's user cannot be honoured by its driver ({@code driverName}, schema {@code schema}) under an
     * agent running as {@code agentUser}; empty when it can.
     */
    static Optional<String> problem(Task task, String driverName, Optional<ConfigSchema> schema, String agentUser) {
        String user = user(task);
        boolean exec = driverName.equals("exec"); // Nomad's exec isolation: its tasks always run as nobody
        if (user == null || (schema != null && schema.isPresent() && schema.get().key("user").isPresent())
                || user.equals(exec ? "nobody" : agentUser)) {
            return Optional.empty();
        }
        return Optional.of("the " + driverName + " driver runs its tasks as " + (exec
                ? "nobody" : "the agent's user (" + agentUser + ")") + " and cannot run one as \"" + user
                + "\"; the java driver can");
    }
}
