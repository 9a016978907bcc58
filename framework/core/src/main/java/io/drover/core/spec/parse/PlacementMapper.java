package io.drover.core.spec.parse;

import io.drover.core.spec.Constraint;
import io.drover.core.spec.placement.VersionConstraint;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the scheduling blocks Nomad allows in a job, a group and a task: {@code constraint} (kept as
 * {@link Constraint}s, which decide placement on this node), {@code affinity} and {@code spread} (checked as
 * Nomad checks them; with one node there is nothing to prefer or spread over, so they change nothing; they are
 * kept in Nomad's API shape, {@code Affinities} and {@code Spreads}, for the job's JSON). Pure; problems are recorded, never thrown, as in {@link JobMapper}.
 */
final class PlacementMapper {
    static final List<String> BLOCKS = List.of("constraint", "affinity", "spread");
    private static final List<String> CONSTRAINT_KEYS = List.of("attribute", "operator", "value", "version", "semver",
            "regexp", "distinct_hosts", "distinct_property", "set_contains", "set_contains_any", "set_contains_all");
    /** The keys of the constraint block that name an operator and hold its value ({@code regexp = "..."}). */
    private static final List<String> SHORTHANDS = CONSTRAINT_KEYS.subList(3, CONSTRAINT_KEYS.size());
    private static final List<String> AFFINITY_KEYS = List.of("attribute", "operator", "value", "weight", "version",
            "semver", "regexp", "set_contains_any", "set_contains_all");
    private static final List<String> SPREAD_KEYS = List.of("attribute", "weight");
    private static final List<String> TARGET_KEYS = List.of("percent");

    private PlacementMapper() {}

    /** The repeatable blocks of a job, group or task: {@code extra} plus constraint, affinity and spread. */
    static List<String> withBlocks(String... extra) {
        List<String> out = new ArrayList<>(List.of(extra));
        out.addAll(BLOCKS);
        return out;
    }

    /** @return the constraints of {@code r} (job: group and task null; group: task null), in file order */
    static List<Constraint> read(MapReader r, String group, String task, Problems p) {
        return read(r, group, task, p, new java.util.LinkedHashMap<>());
    }

    /**
     * As {@link #read(MapReader, String, String, Problems)}, and puts the level's affinities and spreads into
     * {@code kept} as Nomad's API writes them ({@code "Affinities": [{"LTarget", "RTarget", "Operand", "Weight"}]},
     * {@code "Spreads": [{"Attribute", "Weight", "SpreadTarget": [{"Value", "Percent"}]}]}).
     */
    static List<Constraint> read(MapReader r, String group, String task, Problems p, Map<String, Object> kept) {
        List<Constraint> out = new ArrayList<>();
        for (Field f : r.all("constraint")) {
            MapReader c = open(r, f, "constraint", CONSTRAINT_KEYS, List.of(), p);
            if (c != null) {
                Constraint k = p.read(() -> constraint(c, group, task, f.line()), null);
                if (k != null) {
                    out.add(k);
                }
            }
        }
        List<Map<String, Object>> affinities = new ArrayList<>();
        for (Field f : r.all("affinity")) {
            MapReader a = open(r, f, "affinity", AFFINITY_KEYS, List.of(), p);
            if (a != null) {
                Map<String, Object> k = p.read(() -> affinity(a, group, task, f.line()), null);
                if (k != null) {
                    affinities.add(k);
                }
            }
        }
        List<Map<String, Object>> spreads = new ArrayList<>();
        for (Field f : r.all("spread")) {
            MapReader s = open(r, f, "spread", SPREAD_KEYS, List.of("target"), p);
            if (s != null) {
                Map<String, Object> k = p.read(() -> spread(s), null);
                if (k != null) {
                    spreads.add(k);
                }
            }
        }
        if (!affinities.isEmpty()) {
            kept.put("Affinities", List.copyOf(affinities));
        }
        if (!spreads.isEmpty()) {
            kept.put("Spreads", List.copyOf(spreads));
        }
        return out;
    }

    private static MapReader open(MapReader parent, Field f, String kind, List<String> keys, List<String> blocks,
            Problems p) {
        if (!(f.value() instanceof Node.Mapping m) || !m.labels().isEmpty()) {
            p.add(new TreeProblem(f.line(), parent.keyPath(kind), "must be a block without a label: " + kind
                    + " { ... }"));
            return null;
        }
        return MapReader.open(m, parent.keyPath(kind), parent.vocabulary(), keys, blocks, p);
    }

    private static Constraint constraint(MapReader c, String group, String task, int line) throws TreeProblem {
        String attribute = text(c, "attribute");
        String operator = text(c, "operator");
        String value = text(c, "value");
        for (String shorthand : SHORTHANDS) {
            if (!c.has(shorthand)) {
                continue;
            }
            if (operator != null) {
                throw c.problem(shorthand, "sets the operator, and operator = \"" + operator + "\" is set too");
            }
            operator = shorthand;
            String v = text(c, shorthand);
            if (shorthand.equals("distinct_hosts")) {
                if (!v.equals("true") && !v.equals("false")) {
                    throw c.problem(shorthand, "must be true or false, found \"" + v + "\"");
                }
                if (v.equals("false")) {
                    return null; // Nomad: distinct_hosts = false is no constraint
                }
            } else if (shorthand.equals("distinct_property")) {
                attribute = v; // Nomad: distinct_property = "${meta.rack}" names the attribute
                v = value;
            }
            value = shorthand.equals("distinct_hosts") ? null : v;
        }
        String op = operator == null ? "=" : operator;
        if (!Constraint.OPERATORS.contains(op)) {
            throw c.problem("operator", "unknown operator \"" + op + "\" (allowed: "
                    + String.join(", ", Constraint.OPERATORS) + ")");
        }
        String whereKey = c.has(op) ? op : "operator";
        String where = c.keyPath(whereKey);
        int whereLine = c.has(whereKey) ? c.line(whereKey) : c.line();
        boolean needsAttribute = !op.equals("distinct_hosts");
        if (needsAttribute && (attribute == null || attribute.isEmpty())) {
            throw new TreeProblem(c.line(), c.keyPath("attribute"), "is required with operator \"" + op + "\"");
        }
        boolean needsValue = !List.of("distinct_hosts", "distinct_property", "is_set", "is_not_set").contains(op);
        if (needsValue && value == null) {
            throw new TreeProblem(c.line(), c.keyPath("value"), "is required with operator \"" + op + "\"");
        }
        if (op.equals("regexp")) {
            checkRegexp(whereLine, where, value);
        }
        if ((op.equals("version") || op.equals("semver")) && VersionConstraint.problem(value).isPresent()) {
            throw new TreeProblem(whereLine, where, VersionConstraint.problem(value).get());
        }
        if (op.equals("distinct_property") && value != null && !value.matches("[1-9][0-9]{0,8}")) {
            throw new TreeProblem(c.line(), c.keyPath("value"), "must be a positive count for distinct_property, "
                    + "found \"" + value + "\"");
        }
        return new Constraint(group, task, attribute == null ? "" : attribute, op, value == null ? "" : value, line);
    }

    private static Map<String, Object> affinity(MapReader a, String group, String task, int line)
            throws TreeProblem {
        Constraint c = constraint(a, group, task, line); // the same operands, checked the same way
        if (c != null && List.of("distinct_hosts", "distinct_property").contains(c.operand())) {
            throw a.problem("operator", "is not allowed in an affinity: \"" + c.operand() + "\"");
        }
        long weight = a.integer("weight", 50, -100, 100);
        if (weight == 0) {
            throw a.problem("weight", "must not be 0 (from -100 to 100)");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("LTarget", c == null ? "" : c.lTarget());
        m.put("RTarget", c == null ? "" : c.rTarget());
        m.put("Operand", c == null ? "=" : c.operand());
        m.put("Weight", weight);
        return m;
    }

    private static Map<String, Object> spread(MapReader s) throws TreeProblem {
        if (!s.has("attribute")) {
            throw new TreeProblem(s.line(), s.keyPath("attribute"), "is required");
        }
        String attribute = s.string("attribute", null);
        long weight = s.integer("weight", 50, 0, 100);
        List<Map<String, Object>> targets = new ArrayList<>();
        long sum = 0;
        for (Field t : s.all("target")) {
            if (!(t.value() instanceof Node.Mapping m) || m.labels().size() != 1) {
                throw new TreeProblem(t.line(), s.keyPath("target"), "takes one label, the value: target \"dc1\" "
                        + "{ percent = 50 }");
            }
            MapReader tr = MapReader.open(m, s.keyPath("target \"" + m.labels().get(0) + "\""), s.vocabulary(),
                    TARGET_KEYS, List.of());
            long percent = tr.integer("percent", 0, 0, 100);
            sum += percent;
            Map<String, Object> target = new LinkedHashMap<>();
            target.put("Value", m.labels().get(0));
            target.put("Percent", percent);
            targets.add(target);
        }
        if (sum > 100) {
            throw new TreeProblem(s.line(), s.keyPath("target"), "percentages add up to " + sum + ", more than 100");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Attribute", attribute);
        m.put("Weight", weight);
        m.put("SpreadTarget", List.copyOf(targets));
        return m;
    }

    private static void checkRegexp(int line, String where, String value) throws TreeProblem {
        try {
            Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw new TreeProblem(line, where, "not a regular expression: " + e.getDescription());
        }
    }

    /** A scalar value as text (HCL and JSON write {@code value = 3} and {@code distinct_hosts = true}); null when absent. */
    private static String text(MapReader r, String key) throws TreeProblem {
        Field f = r.field(key).orElse(null);
        if (f == null) {
            return null;
        }
        if (!(f.value() instanceof Node.Scalar s) || s.value() == null) {
            throw new TreeProblem(f.line(), r.keyPath(key), "must be a string, number or bool, found "
                    + f.value().describe());
        }
        Object v = s.value();
        if (v instanceof BigDecimal d) {
            return d.stripTrailingZeros().toPlainString();
        }
        if (v instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
            return Long.toString(d.longValue());
        }
        return String.valueOf(v);
    }
}
