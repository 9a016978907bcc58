package io.drover.plugins.exec;

import io.drover.driver.api.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An exec task's {@code config} block: {@code command} (required), {@code args} (list of strings), {@code work_dir}
 * (an absolute path inside the chroot, as Nomad requires; default {@code /}, the task directory). Immutable; pure.
 */
record ExecConfig(String command, List<String> args, String workDir) {
    static final Set<String> KEYS = Set.of("command", "args", "work_dir");
    static final String DEFAULT_WORK_DIR = "/";

    /** One problem per bad or unknown key, sorted by key; empty when valid. */
    static List<ConfigProblem> validate(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        parse(config, problems);
        return problems;
    }

    /** @throws IllegalArgumentException naming every problem */
    static ExecConfig parse(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        ExecConfig parsed = parse(config, problems);
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid exec config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return parsed;
    }

    private static ExecConfig parse(Map<String, Object> config, List<ConfigProblem> out) {
        Map<String, ConfigProblem> problems = new TreeMap<>();
        for (String key : config.keySet()) {
            if (!KEYS.contains(key)) {
                problems.put(key, new ConfigProblem(key, "unknown key; exec takes command, args, work_dir"));
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
        String workDir = DEFAULT_WORK_DIR;
        Object rawWorkDir = config.get("work_dir");
        if (rawWorkDir != null) {
            if (rawWorkDir instanceof String s && s.startsWith("/")) {
                workDir = s;
            } else {
                problems.put("work_dir", new ConfigProblem("work_dir",
                        "must be an absolute path inside the task's chroot (\"/local\")"));
            }
        }
        out.addAll(problems.values());
        return new ExecConfig(command, args, workDir);
    }
}
