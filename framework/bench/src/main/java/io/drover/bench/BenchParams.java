package io.drover.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code --param BENCH.KEY=VALUE} settings of one suite run, checked against the parameters each bench
 * declares ({@link Bench#params()}). Immutable; read by the benches on the suite's thread.
 */
public final class BenchParams {
    private final Map<String, String> values;

    private BenchParams(Map<String, String> values) {
        this.values = values;
    }

    /** No settings: every bench runs with its defaults. */
    public static BenchParams none() {
        return new BenchParams(Map.of());
    }

    /**
     * Parses {@code BENCH.KEY=VALUE} settings.
     *
     * @throws IllegalArgumentException with one line naming the setting: unknown bench or key, bad value
     */
    public static BenchParams parse(List<String> settings, Map<String, Bench> benches) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String s : settings) {
            int dot = s.indexOf('.');
            int eq = s.indexOf('=');
            if (dot <= 0 || eq < dot + 2) {
                throw new IllegalArgumentException("--param " + s + ": expected BENCH.KEY=VALUE, e.g. gc.parallel=4");
            }
            String bench = s.substring(0, dot);
            String key = s.substring(dot + 1, eq);
            Bench b = benches.get(bench);
            if (b == null) {
                throw new IllegalArgumentException("--param " + s + ": unknown bench '" + bench + "' (known: "
                        + String.join(", ", benches.keySet()) + ")");
            }
            Param p = b.params().stream().filter(x -> x.key().equals(key)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("--param " + s + ": bench " + bench
                            + " has no parameter '" + key + "' (" + known(b) + ")"));
            try {
                values.put(bench + "." + key, p.kind().check(s.substring(eq + 1)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--param " + s + ": " + e.getMessage() + " (" + p.help() + ")");
            }
        }
        return new BenchParams(Map.copyOf(values));
    }

    /** The whole number set for {@code bench.key}, else {@code otherwise}. */
    int count(Bench bench, String key, int otherwise) {
        String v = values.get(bench.name() + "." + key);
        return v == null ? otherwise : Integer.parseInt(v);
    }

    /** The flag set for {@code bench.key}, else {@code otherwise}. */
    boolean flag(Bench bench, String key, boolean otherwise) {
        String v = values.get(bench.name() + "." + key);
        return v == null ? otherwise : Boolean.parseBoolean(v);
    }

    private static String known(Bench b) {
        return b.params().isEmpty() ? "it has none"
                : "known: " + b.params().stream().map(Param::key).collect(Collectors.joining(", "));
    }
}
