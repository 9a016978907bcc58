package io.drover.process;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigValidation;
import io.drover.driver.api.schema.ConfigView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The {@code config} block of a driver that runs a command (raw_exec, exec): {@code command} (required),
 * {@code args} (list of strings), {@code work_dir} (each driver says its default and which values it takes),
 * declared as a {@link ConfigSchema} ({@link #schema}).
 * Immutable; pure; any thread.
 */
public record CommandConfig(String command, List<String> args, String workDir) {
    /**
     * How a driver takes {@code work_dir}.
     *
     * @param byDefault the value when the key is absent (may be null)
     * @param accepts which strings it takes
     * @param problem the message for a value it does not take
     */
    public record WorkDirRule(String byDefault, Predicate<String> accepts, String problem) {}

    /**
     * The block's schema: {@code command} (required), {@code args}, {@code work_dir} (the rule's problem says how),
     * and the driver's {@code extra} keys (exec: {@code pid_mode}, {@code ipc_mode}), which the driver reads itself.
     */
    public static ConfigSchema schema(WorkDirRule workDir, Attribute... extra) {
        List<Attribute> all = new ArrayList<>(List.of(
                Attribute.string("command").asRequired().describe("the program to run (a path, or a name on PATH)"),
                Attribute.stringList("args").describe("its arguments; ${...} references are interpolated"),
                Attribute.string("work_dir").describe("its working directory: " + workDir.problem()
                        .replaceFirst("^must be ", ""))));
        all.addAll(List.of(extra));
        return ConfigSchema.of(all.toArray(io.drover.driver.api.schema.SchemaKey[]::new));
    }

    /**
     * One problem per bad or unknown key, sorted by key; empty when valid: the schema's (a {@code ${...}} value is
     * left to start), then what it cannot state (a blank command, the driver's work_dir rule).
     */
    public static List<ConfigProblem> validate(String driver, Map<String, Object> config, WorkDirRule workDir,
            Attribute... extra) {
        List<ConfigProblem> problems = new ArrayList<>();
        parse(driver, config, workDir, extra, problems, true);
        return problems;
    }

    /** @throws IllegalArgumentException naming every problem: {@code invalid DRIVER config: key: problem; ...} */
    public static CommandConfig parse(String driver, Map<String, Object> config, WorkDirRule workDir,
            Attribute... extra) {
        List<ConfigProblem> problems = new ArrayList<>();
        CommandConfig parsed = parse(driver, config, workDir, extra, problems, false);
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid " + driver + " config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return parsed;
    }

    private static CommandConfig parse(String driver, Map<String, Object> config, WorkDirRule rule,
            Attribute[] extra, List<ConfigProblem> out, boolean beforeStart) {
        ConfigSchema schema = schema(rule, extra);
        ConfigValidation checked = beforeStart ? schema.check(config, "the " + driver + " driver")
                : schema.validate(config);
        Map<String, ConfigProblem> problems = new TreeMap<>();
        checked.problems().forEach(p -> problems.putIfAbsent(p.key(), p));
        Object rawCommand = config.get("command");
        if (rawCommand instanceof String s && s.isBlank()) {
            problems.put("command", new ConfigProblem("command", "must be a non-empty string"));
        }
        Object rawWorkDir = config.get("work_dir");
        if (rawWorkDir instanceof String s && !s.contains("${") && !rule.accepts().test(s)) {
            problems.put("work_dir", new ConfigProblem("work_dir", rule.problem()));
        }
        out.addAll(problems.values());
        if (!problems.isEmpty() || beforeStart) {
            return null;
        }
        ConfigView v = checked.view();
        return new CommandConfig(v.string("command"), v.stringList("args"),
                v.isSet("work_dir") ? v.string("work_dir") : rule.byDefault());
    }
}
