package io.drover.plugins.mock;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigView;
import io.drover.driver.api.schema.InvalidConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A mock task's {@code config} block, read through {@link #SCHEMA}. Every key is optional. Immutable; pure
 * parsing, safe from any thread.
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

    /** The mock driver's task config: Nomad's mock driver keys, plus {@code ignore_signals}. */
    static final ConfigSchema SCHEMA = ConfigSchema.of(
            Attribute.duration("run_for").describe("how long the task runs before it exits by itself"),
            Attribute.integer("exit_code").describe("the exit code when it exits by itself"),
            Attribute.integer("exit_signal").describe("the signal number it ends by when it exits by itself"),
            Attribute.string("exit_err_msg").describe("the message of that exit"),
            Attribute.string("start_error").describe("when set, start fails with this message"),
            Attribute.bool("start_error_recoverable").describe("whether that start failure is recoverable"),
            Attribute.duration("start_block_for").describe("start completes only after this long"),
            Attribute.duration("kill_after").describe("after a terminating signal the task exits this long later"),
            Attribute.string("signal_error").describe("when set, signal fails with this message"),
            Attribute.bool("ignore_signals").describe("terminating signals other than SIGKILL are ignored"),
            Attribute.string("stdout_string").describe("written to stdout at start"),
            Attribute.integer("stdout_repeat").describe("written that many more times"),
            Attribute.duration("stdout_repeat_duration").describe("one repeat every this long"),
            Attribute.string("stderr_string").describe("written to stderr at start"),
            Attribute.integer("stderr_repeat").describe("written that many more times"),
            Attribute.duration("stderr_repeat_duration").describe("one repeat every this long"));

    /** The result of a run that ends by itself (run_for elapsed). */
    ExitResult naturalExit() {
        int code = exitCode != null ? exitCode : exitSignal > 0 ? 128 + exitSignal : 0;
        return new ExitResult(code, exitSignal, false, exitErrMsg);
    }

    /**
     * One problem per bad key, unknown keys included, sorted by key; empty when the config is valid: the schema's
     * problems (a {@code ${...}} value is left to start), then the ranges it cannot state.
     */
    static List<ConfigProblem> validate(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>(SCHEMA.check(config, "the mock driver").problems());
        if (problems.isEmpty()) {
            ConfigView view = SCHEMA.validate(deferredDropped(config)).view();
            if (view != null) {
                ranges(view, problems);
            }
        }
        problems.sort(Comparator.comparing(ConfigProblem::key));
        return problems;
    }

    /** @throws IllegalArgumentException listing every problem when the config is not valid */
    static MockConfig parse(Map<String, Object> config) {
        List<ConfigProblem> problems = new ArrayList<>();
        ConfigView v;
        try {
            v = SCHEMA.view(config);
            ranges(v, problems);
        } catch (InvalidConfigException e) {
            problems.addAll(e.problems());
            v = null;
        }
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid mock config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return new MockConfig(
                v.duration("run_for"),
                v.isSet("exit_code") ? (int) v.integer("exit_code") : null,
                (int) v.integer("exit_signal"),
                v.string("exit_err_msg"),
                v.string("start_error"),
                v.bool("start_error_recoverable"),
                v.duration("start_block_for"),
                v.duration("kill_after"),
                v.string("signal_error"),
                v.bool("ignore_signals"),
                output(v, "stdout"),
                output(v, "stderr"));
    }

    /** What the schema cannot state: whole numbers that fit an int, and counts that are not negative. */
    private static void ranges(ConfigView v, List<ConfigProblem> problems) {
        if (v.isSet("exit_code") && (v.integer("exit_code") < Integer.MIN_VALUE
                || v.integer("exit_code") > Integer.MAX_VALUE)) {
            problems.add(new ConfigProblem("exit_code", "must be a whole number"));
        }
        for (String key : List.of("exit_signal", "stdout_repeat", "stderr_repeat")) {
            if (v.integer(key) < 0 || v.integer(key) > Integer.MAX_VALUE) {
                problems.add(new ConfigProblem(key, "must be a whole number, 0 or more"));
            }
        }
    }

    /** The block without values that hold {@code ${...}} (known only at start), for the range checks. */
    private static Map<String, Object> deferredDropped(Map<String, Object> config) {
        Map<String, Object> kept = new java.util.HashMap<>(config);
        kept.values().removeIf(value -> value instanceof String s && s.contains("${"));
        return kept;
    }

    private static Output output(ConfigView v, String stream) {
        String text = v.string(stream + "_string");
        int repeat = (int) v.integer(stream + "_repeat");
        Duration every = v.duration(stream + "_repeat_duration");
        return text.isEmpty() ? Output.NONE : new Output(text, repeat, every);
    }
}
