package io.drover.plugins.rawexec;

import io.drover.driver.api.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A raw_exec task's {@code config} block: {@code command} (required), {@code args} (list of strings),
 * {@code work_dir} (default: the task directory; a relative one is relative to it). Immutable; pure.
 */
record RawExecConfig(String command, List<String> args, String workDir) {
    static final Set<String> KEYS = Set.of("command", "args", "work_dir");

    /** One problem per bad or unknown key, sorted by key; empty when valid. */
    static List<ConfigProblem> validate(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        parse(config, problems);
        return problems;
    }

    /** @throws IllegalArgumentException naming every problem */
    static RawExecConfig parse(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        RawExecConfig parsed = parse(config, problems);
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid raw_exec config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return parsed;
    }

    private static RawExecConfig parse(Map<String, Object> config, List<ConfigProblem> out) {
        Map<String, ConfigProblem> problems = new TreeMap<>();
        for (String key : config.keySet()) {
            if (!KEYS.contains(key)) {
                problems.put(key, new ConfigProblem(key, "unknown key; raw_exec takes command, args, work_dir"));
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
        String workDir = null;
        Object rawWorkDir = config.get("work_dir");
        if (rawWorkDir != null) {
            if (rawWorkDir instanceof String s && !s.isBlank()) {
                workDir = s;
            } else {
                problems.put("work_dir", new ConfigProblem("work_dir", "must be a non-empty string"));
            }
        }
        out.addAll(problems.values());
        return new RawExecConfig(command, args, workDir);
    }
}
