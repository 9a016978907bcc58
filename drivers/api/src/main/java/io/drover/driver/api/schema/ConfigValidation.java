package io.drover.driver.api.schema;

import io.drover.driver.api.ConfigProblem;
import java.util.List;

/**
 * The result of checking a config block against a {@link ConfigSchema}. Immutable.
 *
 * @param problems every problem, sorted by key path; empty when the block is valid
 * @param view the typed block, defaults applied; null when there are problems
 */
public record ConfigValidation(List<ConfigProblem> problems, ConfigView view) {
    public ConfigValidation {
        problems = List.copyOf(problems);
    }

    public boolean valid() {
        return problems.isEmpty();
    }
}
