package io.drover.driver.api.schema;

import io.drover.driver.api.ConfigProblem;
import java.util.List;

/**
 * A config block does not match its {@link ConfigSchema} ({@link ConfigSchema#view}). The message lists every
 * problem: {@code "interval: must be a duration like ..., found \"x\"; url: is required"}.
 */
public class InvalidConfigException extends IllegalArgumentException {
    private final transient List<ConfigProblem> problems;

    public InvalidConfigException(List<ConfigProblem> problems) {
        super(message(problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem, sorted by key path. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String message(List<ConfigProblem> problems) {
        StringBuilder sb = new StringBuilder();
        for (ConfigProblem p : problems) {
            if (sb.length() > 0) {
                sb.append("; ");
            }
            sb.append(p.key().isEmpty() ? "" : p.key() + ": ").append(p.message());
        }
        return sb.toString();
    }
}
