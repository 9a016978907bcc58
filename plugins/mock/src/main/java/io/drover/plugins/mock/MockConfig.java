package io.drover.plugins.mock;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.ExitResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A mock task's {@code config} block, parsed and checked. Every key is optional. Immutable; pure parsing, safe
 * from any thread.
 *
 * @param runFor how long the task runs before it exits by itself; zero: it exits right away
 * @param exitCode the exit code when it exits by itself; null: 0, or 128 + {@code exitSignal} when that is set
 * @param exitSignal the signal the task "ends by" when it exits by itself; 0 for none
 * @param exitErrMsg the {@link ExitResult#message()} of that exit
 * @param startError when not empty, start fails with this message
 * @param startErrorRecoverable whether that start failure is recoverable
 * @param startBlockFor start's stage completes only after this long
 * @param killAfter after a terminating signal the task exits this long later
 * @param signalError when not empty, {@code signal()} fails with this message
 * @param ignoreSignals terminating signals other than SIGKILL are ignored (Drover's addition, for kill escalation)
 */
record MockConfig(
        Duration runFor,
        Integer exitCode,
        int exitSignal,
        String exitErrMsg,
        String startError,
        boolean startErrorRecoverable,
        Duration startBlockFor,
        Duration killAfter,
        String signalError,
        boolean ignoreSignals,
        Output stdout,
        Output stderr) {

    /**
     * What to write to one output stream: {@code text} once at start, then {@code repeat} more times, one every
     * {@code every}, while the task runs.
     */
    record Output(String text, int repeat, Duration every) {
        static final Output NONE = new Output("", 0, Duration.ZERO);
    }

    static final Set<String> KEYS = Set.of("run_for", "exit_code", "exit_signal", "exit_err_msg", "start_error",
            "start_error_recoverable", "start_block_for", "kill_after", "signal_error", "ignore_signals",
            "stdout_string", "stdout_repeat", "stdout_repeat_duration", "stderr_string", "stderr_repeat",
            "stderr_repeat_duration");

    /** The result of a run that ends by itself (run_for elapsed). */
    ExitResult naturalExit() {
        int code = exitCode != null ? exitCode : exitSignal > 0 ? 128 + exitSignal : 0;
        return new ExitResult(code, exitSignal, false, exitErrMsg);
    }

    /** One problem per bad key, unknown keys included, sorted by key; empty when the config is valid. */
    static List<ConfigProblem> validate(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        parse(config, problems);
        return problems;
    }

    /** @throws IllegalArgumentException listing every problem when the config is not valid */
    static MockConfig parse(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        MockConfig parsed = parse(config, problems);
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid mock config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return parsed;
    }

    private static MockConfig parse(Map<String, Object> config, List<ConfigProblem> problems) {
        Values v = new Values(new TreeMap<>(config), problems);
        for (String key : new TreeMap<>(config).keySet()) {
            if (!KEYS.contains(key)) {
                problems.add(new ConfigProblem(key, "unknown key for the mock driver"));
            }
        }
        MockConfig parsed = new MockConfig(
                v.duration("run_for"),
                v.integer("exit_code", null, Integer.MIN_VALUE),
                v.integer("exit_signal", 0, 0),
                v.string("exit_err_msg"),
                v.string("start_error"),
                v.bool("start_error_recoverable"),
                v.duration("start_block_for"),
                v.duration("kill_after"),
                v.string("signal_error"),
                v.bool("ignore_signals"),
                v.output("stdout"),
                v.output("stderr"));
        problems.sort(Comparator.comparing(ConfigProblem::key));
        return parsed;
    }

    /** Typed reads of config values; each bad value adds a problem and yields the default. */
    private record Values(Map<String, Object> config, List<ConfigProblem> problems) {
        Duration duration(String key) {
            Object value = config.get(key);
            if (value == null) {
                return Duration.ZERO;
            }
            if (value instanceof String s) {
                try {
                    Duration d = GoDurations.parse(s);
                    if (!d.isNegative()) {
                        return d;
                    }
                } catch (IllegalArgumentException e) {
                    // reported below
                }
            }
            problems.add(new ConfigProblem(key, "must be a duration like \"5s\" or \"1m30s\", not negative"));
            return Duration.ZERO;
        }

        Integer integer(String key, Integer absent, int min) {
            Object value = config.get(key);
            if (value == null) {
                return absent;
            }
            if (value instanceof Number n) {
                double d = n.doubleValue();
                if (d == Math.rint(d) && d >= min && d <= Integer.MAX_VALUE) {
                    return (int) d;
                }
            }
            problems.add(new ConfigProblem(key, min == 0 ? "must be a whole number, 0 or more" : "must be a whole number"));
            return absent;
        }

        boolean bool(String key) {
            Object value = config.get(key);
            if (value == null) {
                return false;
            }
            if (value instanceof Boolean b) {
                return b;
            }
            if (value instanceof String s && (s.equals("true") || s.equals("false"))) {
                return Boolean.parseBoolean(s);
            }
            problems.add(new ConfigProblem(key, "must be true or false"));
            return false;
        }

        String string(String key) {
            Object value = config.get(key);
            if (value == null) {
                return "";
            }
            if (value instanceof String s) {
                return s;
            }
            problems.add(new ConfigProblem(key, "must be a string"));
            return "";
        }

        Output output(String stream) {
            String text = string(stream + "_string");
            int repeat = integer(stream + "_repeat", 0, 0);
            Duration every = duration(stream + "_repeat_duration");
            return text.isEmpty() ? Output.NONE : new Output(text, repeat, every);
        }
    }
}
