package io.drover.core.spec.parse.tree;

/**
 * One key of a {@link Node.Mapping}.
 *
 * @param key the canonical key the mappers know ({@code kill_timeout}); null when the written name is not a
 *     key of the schema (always unknown, whatever its spelling)
 * @param name the key as written in the file ({@code kill_timeout} or {@code KillTimeout}), for messages
 * @param line 1-based line of the key
 */
public record Field(String key, String name, Node value, int line) {
    /** A field whose canonical key is its written name (HCL, snake_case JSON). */
    public static Field of(String name, Node value, int line) {
        return new Field(name, name, value, line);
    }
}
