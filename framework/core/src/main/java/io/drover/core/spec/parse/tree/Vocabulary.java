package io.drover.core.spec.parse.tree;

import java.util.Map;

/**
 * How a file's syntax spells the canonical keys (for messages about absent keys and allowed keys), and how
 * it writes durations.
 *
 * @param names canonical key to the name the file would use; a key not in the map is spelt as is
 * @param nanosecondDurations whether an integer is accepted as a duration in nanoseconds (Nomad's JSON API)
 */
public record Vocabulary(Map<String, String> names, boolean nanosecondDurations) {
    /** HCL and snake_case JSON: keys as they are, durations as strings only. */
    public static final Vocabulary AS_WRITTEN = new Vocabulary(Map.of(), false);

    public Vocabulary {
        names = Map.copyOf(names);
    }

    public String spell(String key) {
        return names.getOrDefault(key, key);
    }
}
