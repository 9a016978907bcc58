package io.drover.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a client has seen of every task, and the invariants across agent kills (product.md §7: an event a client
 * has seen is on disk). Each observation of an allocation (from any API read) is checked against everything
 * seen before: each task's earlier event list must be an exact prefix of its list now (every field of every
 * event equal: Type, Time, DisplayMessage, details); State is never blank; a task seen dead gets no new
 * {@code Started} event. Violations are collected, not thrown, so the poller thread keeps going; each names the
 * seed. Thread-safe (one monitor).
 */
final class EventOracle {
    private static final Set<String> STATES = Set.of("pending", "running", "dead");

    private final long seed;
    private final Map<String, Map<String, List<JsonNode>>> events = new HashMap<>();
    private final Map<String, Long> startsWhenDead = new HashMap<>();
    private final Map<String, String> lastState = new HashMap<>();
    private final Set<String> acknowledged = new LinkedHashSet<>();
    private final Set<String> terminal = new LinkedHashSet<>();
    private final List<String> violations = new ArrayList<>();

    EventOracle(long seed) {
        this.seed = seed;
    }

    /** An allocation id the API returned to a client: it must exist after every restart. */
    synchronized void acknowledged(String allocId) {
        acknowledged.add(allocId);
    }

    synchronized Set<String> acknowledged() {
        return new LinkedHashSet<>(acknowledged);
    }

    synchronized boolean terminal(String allocId) {
        return terminal.contains(allocId);
    }

    /** Checks one API view of an allocation against what was seen before, then remembers it. */
    synchronized void observe(JsonNode alloc, String where) {
        String id = alloc.path("ID").asText();
        acknowledged.add(id);
        String status = alloc.path("ClientStatus").asText();
        if (status.equals("complete") || status.equals("failed")) {
            terminal.add(id);
        } else if (terminal.contains(id)) {
            violation("allocation %s was terminal and is now %s (%s)", id, status, where);
        }
        Map<String, List<JsonNode>> seen = events.computeIfAbsent(id, k -> new HashMap<>());
        alloc.path("TaskStates").fields().forEachRemaining(t -> {
            String key = id + "/" + t.getKey();
            JsonNode state = t.getValue();
            String s = state.path("State").asText("");
            if (!STATES.contains(s)) {
                violation("task %s has State \"%s\" (%s)", key, s, where);
            }
            List<JsonNode> now = new ArrayList<>();
            state.path("Events").forEach(now::add);
            List<JsonNode> before = seen.getOrDefault(t.getKey(), List.of());
            if (now.size() < before.size() || !now.subList(0, before.size()).equals(before)) {
                violation("task %s: the events seen before are not a prefix of its events now (%s)%n  before: %s%n"
                        + "  now:    %s", key, where, before, now);
            }
            long starts = now.stream().filter(e -> e.path("Type").asText().equals("Started")).count();
            Long dead = startsWhenDead.get(key);
            if (dead != null && starts > dead) {
                violation("task %s was seen dead and started again (%s): %s", key, where, now);
            }
            if (s.equals("dead") && dead == null) {
                startsWhenDead.put(key, starts);
            }
            if (now.size() >= before.size()) {
                seen.put(t.getKey(), now);
            }
            lastState.put(key, s);
        });
    }

    /** The tasks ({@code alloc/task}) whose latest observed State is running: the ones a kill now catches live. */
    synchronized Set<String> running() {
        Set<String> out = new LinkedHashSet<>();
        lastState.forEach((k, s) -> {
            if (s.equals("running")) {
                out.add(k);
            }
        });
        return out;
    }

    /** The events seen of a task, oldest first. */
    synchronized List<JsonNode> events(String allocId, String task) {
        return events.getOrDefault(allocId, Map.of()).getOrDefault(task, List.of());
    }

    synchronized void violation(String format, Object... args) {
        violations.add("[seed " + seed + "] " + String.format(format, args));
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }
}
