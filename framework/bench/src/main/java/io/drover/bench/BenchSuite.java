package io.drover.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every bench of {@code drover bench}, in the order they run, and the loop that runs them. A bench that throws
 * yields an {@link Verdict#ERROR} figure naming the error and the suite goes on.
 */
public final class BenchSuite {
    private BenchSuite() {}

    /** The benches by name, in run order. */
    public static Map<String, Bench> all() {
        Map<String, Bench> m = new LinkedHashMap<>();
        for (Bench b : List.of(new LaunchBench(), new LifecycleBench(), new EscalationBench(false),
                new EscalationBench(true), new MaxRuntimeBench(), new GcBench(),
                new ConcurrentTasksBench(), new StoreEventsBench(), new SeedRunBench(), new AgentStartBench(),
                new AllocGetBench(), new CliBench(), new NomadPluginBench())) {
            m.put(b.name(), b);
        }
        return m;
    }

    /**
     * Runs the benches named in {@code only} (all when empty), on this thread.
     *
     * @throws IllegalArgumentException naming an unknown bench, before anything runs
     */
    public static List<Figure> run(BenchEnv env, Set<String> only) {
        Map<String, Bench> all = all();
        for (String name : only) {
            if (!all.containsKey(name)) {
                throw new IllegalArgumentException("unknown bench '" + name + "' (known: "
                        + String.join(", ", all.keySet()) + ")");
            }
        }
        List<Figure> figures = new ArrayList<>();
        for (Bench b : all.values()) {
            if (!only.isEmpty() && !only.contains(b.name())) {
                continue;
            }
            env.progress().printf("bench %s ... (sync before it: %.1f s)%n", b.name(), DiskSettle.sync());
            long t0 = System.nanoTime();
            try {
                figures.addAll(b.run(env));
            } catch (Exception | AssertionError e) {
                figures.add(Figure.error(b.name(), e.getClass().getSimpleName() + ": " + e.getMessage()));
            }
            env.progress().printf("bench %s done in %.1f s%n", b.name(), (System.nanoTime() - t0) / 1e9);
        }
        return figures;
    }
}
