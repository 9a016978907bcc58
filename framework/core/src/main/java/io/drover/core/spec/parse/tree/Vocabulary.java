package io.drover.core.spec.parse.tree;

import java.util.Map;

/**
 * How a file's syntax spells the canonical keys (for messages about absent keys and allowed keys), how it
 * writes durations, and whether strings convert to numbers and bools.
 *
 * @param names canonical key to the name the file would use; a key not in the map is spelt as is
 * @param nanosecondDurations whether an integer is accepted as a duration in nanoseconds (Nomad's JSON API)
 * @param convertStrings whether a string holding a number or a bool is taken where one is needed
 *     ({@code cpu = "500"}, {@code leader = "true"}), as HCL2 converts them (JSON is typed: no)
 */
public record Vocabulary(Map<String, String> names, boolean nanosecondDurations, boolean convertStrings) {
    /** Snake_case JSON and literal HCL: keys as they are, durations as strings only, no conversions. */
    public static final Vocabulary AS_WRITTEN = new Vocabulary(Map.of(), false, false);

    /** HCL2 jobspecs: keys as they are, durations as strings, HCL2's string conversions. */
    public static final Vocabulary HCL2 = new Vocabulary(Map.of(), false, true);

    public Vocabulary {
        names = Map.copyOf(names);
    }

    public Vocabulary(Map<String, String> names, boolean nanosecondDurations) {
        this(names, nanosecondDurations, false);
    }

    public String spell(String key) {
        return names.getOrDefault(key, key);
    }
}
