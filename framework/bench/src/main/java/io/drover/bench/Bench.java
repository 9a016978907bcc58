package io.drover.bench;

import java.util.List;

/**
 * One measurement of {@code drover bench}. Implementations are stateless; {@link #run} is called once per
 * suite run, on the suite's thread, and may block, start processes and threads: it must leave none behind
 * (every engine, store, driver registry and process it starts is closed or killed before it returns).
 */
public interface Bench {
    /** Short name used by {@code --only} and as the JSON key, e.g. {@code launch}. */
    String name();

    /** Runs the measurement; returns its figures (at least one). Throws when it cannot measure. */
    List<Figure> run(BenchEnv env) throws Exception;

    /** The settings {@code --param NAME.KEY=VALUE} accepts for this bench (none by default). */
    default List<Param> params() {
        return List.of();
    }
}
