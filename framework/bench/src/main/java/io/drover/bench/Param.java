package io.drover.bench;

/**
 * An option of one bench, set with {@code drover bench --param BENCH.KEY=VALUE}.
 *
 * @param key the name after the bench's, e.g. {@code parallel} for {@code gc.parallel}
 * @param kind what values it takes
 * @param help one line for docs and errors, with the default, e.g. "gc_parallel_destroys (default 2)"
 */
public record Param(String key, Kind kind, String help) {
    /** The values a parameter takes. */
    public enum Kind {
        /** A whole number >= 1. */
        COUNT,
        /** {@code true} or {@code false}. */
        FLAG;

        /** The value checked, or an IllegalArgumentException saying what was expected. */
        String check(String value) {
            if (this == FLAG) {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new IllegalArgumentException("'" + value + "' is not true or false");
                }
                return value;
            }
            try {
                if (Integer.parseInt(value) >= 1) {
                    return value;
                }
            } catch (NumberFormatException notANumber) {
                // the message below
            }
            throw new IllegalArgumentException("'" + value + "' is not a whole number >= 1");
        }
    }

    /** A whole number >= 1. */
    static Param count(String key, String help) {
        return new Param(key, Kind.COUNT, help);
    }

    /** true or false. */
    static Param flag(String key, String help) {
        return new Param(key, Kind.FLAG, help);
    }
}
