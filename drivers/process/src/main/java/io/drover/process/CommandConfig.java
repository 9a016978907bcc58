package io.drover.process;

import io.drover.driver.api.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The {@code config} block of a driver that runs a command (raw_exec, exec): {@code command} (required),
 * {@code args} (list of strings), {@code work_dir} (each driver says its default and which values it takes).
 * Immutable; pure; any thread.
 */
public record CommandConfig(String command, List<String> args, String workDir) {
    static final Set<String> KEYS = Set.of("command", "args", "work_dir");

    /**
     * How a driver takes {@code work_dir}.
     *
     * @param byDefault the value when the key is absent (may be null)
     * @param accepts which strings it takes
     * @param problem the message for a value it does not take
     */
    public record WorkDirRule(String byDefault, Predicate<String> accepts, String problem) {}

    /** One problem per bad or unknown key, sorted by key; empty when valid. */
    public static List<ConfigProblem> validate(String driver, Map<String, Object> config, WorkDirRule workDir) {
        List<ConfigProblem> problems = new ArrayList<>();
        parse(driver, config, workDir, problems);
        return problems;
    }

    /** @throws IllegalArgumentException naming every problem: {@code invalid DRIVER config: key: problem; ...} */
    public static CommandConfig parse(String driver, Map<String, Object> config, WorkDirRule workDir) {
        List<ConfigProblem> problems = new ArrayList<>();
        CommandConfig parsed = parse(driver, config, workDir, problems);
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid " + driver + " config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return parsed;
    }

    private static CommandConfig parse(String driver, Map<String, Object> config, WorkDirRule rule,
            List<ConfigProblem> out) {
        Map<String, ConfigProblem> problems = new TreeMap<>();
        for (String key : config.keySet()) {
            if (!KEYS.contains(key)) {
                problems.put(key, new ConfigProblem(key, "unknown key; " + driver + " takes command, args, work_dir"));
            }
        }
        String command = null;
        Object rawCommand = config.get("command");
        if (rawCommand == null) {
            problems.put("command", new ConfigProblem("command", "is required"));
        } else if (!(rawCommand instanceof String s) || s.isBlank()) {
            problems.put("command", new ConfigProblem("command", "must be a non-empty string"));
        } else {
            command = s;
        }
        List<String> args = new ArrayList<>();
        Object rawArgs = config.get("args");
        if (rawArgs != null) {
            if (rawArgs instanceof List<?> list && list.stream().allMatch(a -> a instanceof String)) {
                list.forEach(a -> args.add((String) a));
            } else {
                problems.put("args", new ConfigProblem("args", "must be a list of strings"));
            }
        }
        String workDir = rule.byDefault();
        Object rawWorkDir = config.get("work_dir");
        if (rawWorkDir != null) {
            if (rawWorkDir instanceof String s && rule.accepts().test(s)) {
                workDir = s;
            } else {
                problems.put("work_dir", new ConfigProblem("work_dir", rule.problem()));
            }
        }
        out.addAll(problems.values());
        return new CommandConfig(command, List.copyOf(args), workDir);
    }
}
