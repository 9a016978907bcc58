package io.drover.core.vars;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The node's Nomad variables ({@code /v1/var/:path}, {@code nomadVar} in templates), kept in memory and, for an
 * agent, in {@code <data_dir>/variables.json}: rewritten whole at each change (a temporary file, synced, renamed
 * over the old one, the directory synced), so a crash leaves the old or the new content and a restarted agent has
 * every variable it acknowledged. Variables are few and small (64KiB each at most), so a whole rewrite is cheap.
 *
 * <p>Thread-safe: writes ({@link #put}, {@link #delete}) are serialised on this object and block on the file (they
 * run on the API thread that asked, as parent-job writes do); reads take an immutable snapshot and never block.
 * Every change takes the next agent index ({@code take}) and publishes it ({@code publish}, which wakes blocking
 * queries) only once the change is visible, so a woken query reads it.
 */
public final class VariableStore {
    static final String FILE = "variables.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The outcome of a checked write: applied, or the conflict's current variable (null: absent). */
    public record Result(boolean applied, Variable variable) {}

    /** The file's content. */
    record Content(@JsonProperty("Variables") List<Variable> variables) {
        Content {
            variables = variables == null ? List.of() : List.copyOf(variables);
        }
    }

    private final Path file; // null: memory only
    private final LongSupplier index;
    private final java.util.function.LongConsumer publish;
    private final boolean restrictTasks;
    private volatile Map<String, Variable> byKey = Map.of(); // namespace + "\0" + path, sorted

    private VariableStore(Path file, LongSupplier index, java.util.function.LongConsumer publish,
            boolean restrictTasks, Map<String, Variable> loaded) {
        this.file = file;
        this.index = index;
        this.publish = publish;
        this.restrictTasks = restrictTasks;
        this.byKey = loaded;
    }

    /** A store that keeps nothing on disk (tests, an engine without an agent). */
    public static VariableStore memory(LongSupplier index) {
        return new VariableStore(null, index, v -> { }, false, Map.of());
    }

    /**
     * Opens the store in {@code dataDir} (blocking: agent start only).
     *
     * @param restrictTasks whether tasks read only the paths of their workload identity (ACLs on)
     * @throws IOException one line naming the file when it cannot be read or parsed
     */
    public static VariableStore open(Path dataDir, LongSupplier take, java.util.function.LongConsumer publish,
            boolean restrictTasks) throws IOException {
        Path file = dataDir.resolve(FILE);
        Map<String, Variable> loaded = new TreeMap<>();
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(file + " is not a regular file");
            }
            try {
                for (Variable v : JSON.readValue(Files.readAllBytes(file), Content.class).variables()) {
                    loaded.put(key(v.namespace(), v.path()), v);
                }
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IOException(file + " is not valid: " + e.getOriginalMessage(), e);
            }
        }
        return new VariableStore(file, take, publish, restrictTasks,
                java.util.Collections.unmodifiableMap(loaded));
    }

    /** Whether tasks read only the paths of their workload identity. */
    public boolean restrictTasks() {
        return restrictTasks;
    }

    private static String key(String namespace, String path) {
        return (namespace == null || namespace.isEmpty() ? "default" : namespace) + "\0" + path;
    }

    public Optional<Variable> get(String namespace, String path) {
        return Optional.ofNullable(byKey.get(key(namespace, path)));
    }

    /** The variables of {@code namespace} ({@code "*"}: all) whose path starts with {@code prefix}, sorted. */
    public List<Variable> list(String namespace, String prefix) {
        List<Variable> out = new ArrayList<>();
        for (Variable v : byKey.values()) {
            if ((namespace.equals("*") || v.namespace().equals(namespace))
                    && v.path().startsWith(prefix == null ? "" : prefix)) {
                out.add(v);
            }
        }
        return out;
    }

    /**
     * Creates or replaces a variable (its path and items already validated). With {@code cas} (not null), applies
     * only when the current ModifyIndex is {@code cas} (0: only when absent), as Nomad's check-and-set.
     *
     * @throws IOException when the change cannot be made durable; then it is not applied
     */
    public synchronized Result put(String namespace, String path, Map<String, String> items, Long cas)
            throws IOException {
        String k = key(namespace, path);
        Variable old = byKey.get(k);
        if (cas != null && (old == null ? cas != 0 : old.modifyIndex() != cas)) {
            return new Result(false, old);
        }
        long idx = index.getAsLong();
        long now = System.currentTimeMillis() * 1_000_000L;
        Variable v = new Variable(namespace, path, items, old == null ? idx : old.createIndex(), idx,
                old == null ? now : old.createTime(), now);
        Map<String, Variable> next = new TreeMap<>(byKey);
        next.put(k, v);
        commit(next);
        publish.accept(idx);
        return new Result(true, v);
    }

    /**
     * Deletes a variable; with {@code cas}, only when its ModifyIndex is {@code cas} (0: only when absent). Deleting
     * an absent variable applies (Nomad answers 200).
     */
    public synchronized Result delete(String namespace, String path, Long cas) throws IOException {
        String k = key(namespace, path);
        Variable old = byKey.get(k);
        if (cas != null && (old == null ? cas != 0 : old.modifyIndex() != cas)) {
            return new Result(false, old);
        }
        if (old != null) {
            long idx = index.getAsLong();
            Map<String, Variable> next = new TreeMap<>(byKey);
            next.remove(k);
            commit(next);
            publish.accept(idx);
        }
        return new Result(true, null);
    }

    private void commit(Map<String, Variable> next) throws IOException {
        if (file != null) {
            save(new ArrayList<>(next.values()));
        }
        byKey = java.util.Collections.unmodifiableMap(next);
    }

    private void save(List<Variable> all) throws IOException {
        io.drover.core.store.DurableFile.replace(file, JSON.writeValueAsBytes(new Content(all)),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"))); // the items are secrets
    }
}
