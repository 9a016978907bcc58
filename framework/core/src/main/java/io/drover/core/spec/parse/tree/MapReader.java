package io.drover.core.spec.parse.tree;

import io.drover.core.spec.parse.GoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A strict, typed view of one {@link Node.Mapping}: opening it refuses keys that are not allowed and keys
 * set twice that may appear only once; the getters convert values and refuse wrong types, each problem as a
 * {@link TreeProblem} with the line and the key path ({@code job "x" > group "g" > count}).
 * Absent keys give the caller's default.
 */
public final class MapReader {
    private final Node.Mapping map;
    private final String path;
    private final Vocabulary vocab;
    private final Map<String, List<Field>> byKey = new LinkedHashMap<>();

    private MapReader(Node.Mapping map, String path, Vocabulary vocab) {
        this.map = map;
        this.path = path;
        this.vocab = vocab;
    }

    /**
     * @param path key path of the mapping itself, empty for a file's root
     * @param single keys allowed at most once
     * @param repeatable keys allowed any number of times (repeated blocks)
     */
    public static MapReader open(Node.Mapping map, String path, Vocabulary vocab, List<String> single,
            List<String> repeatable) throws TreeProblem {
        Problems found = new Problems();
        MapReader r = open(map, path, vocab, single, repeatable, found);
        if (!found.isEmpty()) {
            throw found.list().get(0);
        }
        return r;
    }

    /**
     * Like {@link #open(Node.Mapping, String, Vocabulary, List, List)}, but records every unknown or repeated
     * key in {@code problems} and leaves it out of the reader, so that the other keys can still be read.
     */
    public static MapReader open(Node.Mapping map, String path, Vocabulary vocab, List<String> single,
            List<String> repeatable, Problems problems) {
        MapReader r = new MapReader(map, path, vocab);
        for (Field f : map.fields()) {
            boolean isSingle = f.key() != null && single.contains(f.key());
            if (!isSingle && (f.key() == null || !repeatable.contains(f.key()))) {
                List<String> allowed = new ArrayList<>(single);
                allowed.addAll(repeatable);
                problems.add(new TreeProblem(f.line(), join(path, f.name()), allowed.isEmpty() ? "unknown key (none allowed here)"
                        : "unknown key (allowed: " + allowed.stream().map(vocab::spell).collect(Collectors.joining(", "))
                                + ")"));
                continue;
            }
            List<Field> list = r.byKey.computeIfAbsent(f.key(), k -> new ArrayList<>());
            if (isSingle && !list.isEmpty()) {
                problems.add(new TreeProblem(f.line(), join(path, f.name()),
                        "set more than once (first at line " + list.get(0).line() + ")"));
                continue;
            }
            list.add(f);
        }
        return r;
    }

    /** {@code path > name}, or {@code name} for an empty path. */
    public static String join(String path, String name) {
        return path.isEmpty() ? name : path + " > " + name;
    }

    public String path() {
        return path;
    }

    public Vocabulary vocabulary() {
        return vocab;
    }

    /** Line of the mapping itself. */
    public int line() {
        return map.line();
    }

    public boolean has(String key) {
        return byKey.containsKey(key);
    }

    /** Line of the key's (first) field, else of the mapping. */
    public int line(String key) {
        return field(key).map(Field::line).orElse(map.line());
    }

    /** Key path of a key, spelt as written when present, else as the file's syntax spells it. */
    public String keyPath(String key) {
        return join(path, field(key).map(Field::name).orElse(vocab.spell(key)));
    }

    public Optional<Field> field(String key) {
        List<Field> list = byKey.get(key);
        return list == null ? Optional.empty() : Optional.of(list.get(0));
    }

    /** Every field of a repeatable key, in source order. */
    public List<Field> all(String key) {
        return byKey.getOrDefault(key, List.of());
    }

    public TreeProblem problem(String key, String message) {
        return new TreeProblem(line(key), keyPath(key), message);
    }

    private TreeProblem wrongType(Field f, String expected) {
        return new TreeProblem(f.line(), join(path, f.name()), "must be " + expected + ", found " + f.value().describe());
    }

    public String string(String key, String dflt) throws TreeProblem {
        Optional<Field> f = field(key);
        if (f.isEmpty()) {
            return dflt;
        }
        if (f.get().value() instanceof Node.Scalar s && s.value() instanceof String str) {
            return str;
        }
        throw wrongType(f.get(), "a string");
    }

    /** @return the value, null when absent */
    public Boolean bool(String key) throws TreeProblem {
        Optional<Field> f = field(key);
        if (f.isEmpty()) {
            return null;
        }
        if (f.get().value() instanceof Node.Scalar s && s.value() instanceof Boolean b) {
            return b;
        }
        if (vocab.convertStrings() && f.get().value() instanceof Node.Scalar s
                && ("true".equals(s.value()) || "false".equals(s.value()))) {
            return Boolean.parseBoolean((String) s.value()); // HCL2 converts "true" to true
        }
        throw wrongType(f.get(), "true or false");
    }

    public boolean bool(String key, boolean dflt) throws TreeProblem {
        Boolean b = bool(key);
        return b == null ? dflt : b;
    }

    /** An integer in {@code [min, max]}; {@code dflt} when absent. */
    public long integer(String key, long dflt, long min, long max) throws TreeProblem {
        Optional<Field> f = field(key);
        if (f.isEmpty()) {
            return dflt;
        }
        Long n = f.get().value() instanceof Node.Scalar s ? wholeNumber(s.value()) : null;
        if (n == null) {
            throw wrongType(f.get(), "a whole number");
        }
        if (n < min) {
            throw problem(key, min == 0 ? "must not be negative (got " + n + ")" : "must be at least " + min + " (got " + n + ")");
        }
        if (n > max) {
            throw problem(key, "must be at most " + max + " (got " + n + ")");
        }
        return n;
    }

    /** A Long, or (when the vocabulary converts strings, as HCL2 does) a string of one; else null. */
    private Long wholeNumber(Object v) {
        if (v instanceof Long n) {
            return n;
        }
        if (vocab.convertStrings() && v instanceof String str && str.strip().matches("-?\\d{1,18}")) {
            return Long.parseLong(str.strip());
        }
        return null;
    }

    /**
     * A duration: a Go duration string, or (when the vocabulary says so) integer nanoseconds.
     *
     * @param positive whether zero is refused too
     * @return the duration, {@code dflt} when absent
     */
    public Duration duration(String key, Duration dflt, boolean positive) throws TreeProblem {
        Optional<Field> f = field(key);
        if (f.isEmpty()) {
            return dflt;
        }
        Duration d;
        Object v = f.get().value() instanceof Node.Scalar s ? s.value() : null;
        if (v instanceof String str) {
            try {
                d = GoDurations.parse(str.strip());
            } catch (IllegalArgumentException e) {
                throw problem(key, e.getMessage());
            }
        } else if (v instanceof Long n && vocab.nanosecondDurations()) {
            d = Duration.ofNanos(n);
        } else {
            throw wrongType(f.get(), vocab.nanosecondDurations() ? "nanoseconds or a duration like \"5s\""
                    : "a duration string like \"5s\"");
        }
        if (d.isNegative()) {
            throw problem(key, "must not be negative");
        }
        if (positive && d.isZero()) {
            throw problem(key, "must be positive");
        }
        return d;
    }

    /** A list of strings; null when absent. */
    public List<String> strings(String key) throws TreeProblem {
        Optional<Field> f = field(key);
        if (f.isEmpty()) {
            return null;
        }
        if (!(f.get().value() instanceof Node.Sequence seq)) {
            throw wrongType(f.get(), "a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (Node item : seq.items()) {
            if (!(item instanceof Node.Scalar s) || !(s.value() instanceof String str)) {
                throw new TreeProblem(item.line(), keyPath(key), "must be a list of strings, found " + item.describe()
                        + " in it");
            }
            out.add(str);
        }
        return List.copyOf(out);
    }

    /**
     * An object of strings ({@code env}, {@code meta}): numbers and bools become their text; empty when absent.
     * Insertion-ordered.
     */
    public Map<String, String> stringMap(String key) throws TreeProblem {
        Node.Mapping m = mapping(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (m == null) {
            return out;
        }
        for (Field f : m.fields()) {
            if (!(f.value() instanceof Node.Scalar s) || s.value() == null) {
                throw new TreeProblem(f.line(), join(keyPath(key), f.name()), "must be a string, found " + f.value().describe());
            }
            if (out.putIfAbsent(f.name(), String.valueOf(s.value())) != null) {
                throw new TreeProblem(f.line(), join(keyPath(key), f.name()), "set more than once");
            }
        }
        return out;
    }

    /**
     * An object of any values ({@code config}): String, Long, Double, Boolean, List and Map values, maps
     * insertion-ordered; a nested block becomes a map, a repeated one a list of maps. Empty when absent.
     */
    public Map<String, Object> anyMap(String key) throws TreeProblem {
        Node.Mapping m = mapping(key);
        return m == null ? new LinkedHashMap<>() : plainMap(m, keyPath(key));
    }

    /** The key's value as a label-less mapping; null when absent. */
    public Node.Mapping mapping(String key) throws TreeProblem {
        Optional<Field> f = field(key);
        if (f.isEmpty()) {
            return null;
        }
        if (!(f.get().value() instanceof Node.Mapping m)) {
            throw wrongType(f.get(), "a block or an object");
        }
        if (!m.labels().isEmpty()) {
            throw new TreeProblem(f.get().line(), keyPath(key), "takes no label");
        }
        return m;
    }

    /** A strict reader of the key's label-less mapping; null when absent. */
    public MapReader child(String key, List<String> single, List<String> repeatable) throws TreeProblem {
        Node.Mapping m = mapping(key);
        return m == null ? null : open(m, keyPath(key), vocab, single, repeatable);
    }

    /**
     * A reader of the key's label-less mapping that records its key problems in {@code problems} (see
     * {@link #open(Node.Mapping, String, Vocabulary, List, List, Problems)}); null when absent or not a mapping
     * (that problem recorded too).
     */
    public MapReader child(String key, List<String> single, List<String> repeatable, Problems problems) {
        Node.Mapping m = problems.read(() -> mapping(key), null);
        return m == null ? null : open(m, keyPath(key), vocab, single, repeatable, problems);
    }

    /** Converts a mapping to plain Java values; see {@link #anyMap}. */
    public static Map<String, Object> plainMap(Node.Mapping m, String path) throws TreeProblem {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Boolean> repeatedBlock = new LinkedHashMap<>();
        for (Field f : m.fields()) {
            String here = join(path, f.name());
            if (f.value() instanceof Node.Mapping block && !block.labels().isEmpty()) {
                throw new TreeProblem(f.line(), here, "labelled blocks are not supported here");
            }
            Object v = plain(f.value(), here);
            boolean isBlock = f.value() instanceof Node.Mapping;
            if (!out.containsKey(f.name())) {
                out.put(f.name(), v);
                repeatedBlock.put(f.name(), isBlock);
            } else if (isBlock && Boolean.TRUE.equals(repeatedBlock.get(f.name()))) {
                Object prev = out.get(f.name());
                List<Object> list = new ArrayList<>();
                if (prev instanceof RepeatedBlocks r) {
                    list.addAll(r.items);
                } else {
                    list.add(prev);
                }
                list.add(v);
                out.put(f.name(), new RepeatedBlocks(list));
            } else {
                throw new TreeProblem(f.line(), here, "set more than once");
            }
        }
        out.replaceAll((k, v) -> v instanceof RepeatedBlocks r ? Collections.unmodifiableList(r.items) : v);
        return Collections.unmodifiableMap(out);
    }

    private record RepeatedBlocks(List<Object> items) {}

    private static Object plain(Node node, String path) throws TreeProblem {
        if (node instanceof Node.Scalar s) {
            if (s.value() == null) {
                throw new TreeProblem(s.line(), path, "null is not allowed in a list");
            }
            return s.value();
        } else if (node instanceof Node.Sequence seq) {
            List<Object> list = new ArrayList<>();
            for (Node item : seq.items()) {
                list.add(plain(item, path));
            }
            return Collections.unmodifiableList(list);
        }
        return plainMap((Node.Mapping) node, path);
    }
}
