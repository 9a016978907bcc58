package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a parsed job file into literals, as Nomad's jobspec2 does: reads the {@code variable} and
 * {@code locals} blocks (then drops them), expands {@code dynamic} blocks, and evaluates every expression, so
 * that what follows ({@code HclTrees}, {@code JobMapper}) sees the literal body it always saw. Lines stay
 * those of the file; a block made by a {@code dynamic} block has the dynamic block's line. Every problem is
 * collected (one per bad attribute, the attribute left out); none is thrown. Pure.
 */
public final class HclEvaluation {
    /**
     * @param body the file without its variable and locals blocks, every value a literal
     * @param problems everything wrong, in file order within each phase (variables, locals, the job)
     * @param failed "blockLine:name" of each attribute left out because it could not be evaluated, so that a
     *     later "is required" for it is not reported twice
     */
    public record Result(HclBody body, List<HclProblem> problems, Set<String> failed) {}

    private static final String NO_VALUE = "\" has no value";
    private static final String LOCAL_FAILED = " has an error (at line ";

    private final HclEvaluator ev;
    private final List<HclProblem> problems = new ArrayList<>();
    private final Set<String> failed = new HashSet<>();

    private HclEvaluation(HclFunctions functions) {
        this.ev = new HclEvaluator(functions);
    }

    public static Result evaluate(HclBody raw, HclInputs inputs) {
        HclEvaluation e = new HclEvaluation(HclFunctions.of(inputs.baseDir()));
        return e.run(raw, inputs);
    }

    /** A body already evaluated ({@link HclRenderer}'s text): kept as it is; any expression is a problem. */
    public static Result literalOnly(HclBody raw) {
        List<HclProblem> problems = new ArrayList<>();
        checkLiteral(raw, problems);
        return new Result(raw, List.copyOf(problems), Set.of());
    }

    private static void checkLiteral(HclBody body, List<HclProblem> problems) {
        for (HclItem item : body.items()) {
            if (item instanceof HclAttribute a && a.value() instanceof HclValue.Expr e) {
                problems.add(new HclProblem(null, a.line(), e.expr().col(), a.name()
                        + ": an evaluated job holds literal values only"));
            } else if (item instanceof HclBlock b) {
                checkLiteral(b.body(), problems);
            }
        }
    }

    private Result run(HclBody raw, HclInputs inputs) {
        List<HclBlock> variableBlocks = new ArrayList<>();
        Map<String, HclAttribute> locals = new LinkedHashMap<>();
        List<HclItem> rest = new ArrayList<>();
        for (HclItem item : raw.items()) {
            if (item instanceof HclBlock b && b.type().equals("variable")) {
                variableBlocks.add(b);
            } else if (item instanceof HclBlock b && b.type().equals("locals")) {
                for (HclItem li : b.body().items()) {
                    if (li instanceof HclAttribute a) {
                        HclAttribute first = locals.putIfAbsent(a.name(), a);
                        if (first != null) {
                            problems.add(new HclProblem(null, a.line(), 0, "local." + a.name()
                                    + " is defined more than once (first at line " + first.line() + ")"));
                        }
                    } else {
                        problems.add(new HclProblem(null, li.line(), 0, "locals holds name = value lines only"));
                    }
                }
            } else {
                rest.add(item);
            }
        }
        RootScope empty = new RootScope(Map.of(), Map.of(), Map.of());
        Map<String, HclVariables.Declared> declared = HclVariables.declare(variableBlocks, ev, empty, problems);
        Map<String, Object> values = HclVariables.values(declared, inputs, ev, empty, problems);
        RootScope root = new RootScope(declared, values, locals);
        HclVariables.validate(declared, values, ev, root, problems);
        for (String name : locals.keySet()) {
            try {
                root.local(name, locals.get(name).line(), 0);
            } catch (HclSyntaxException e) {
                if (!isConsequence(e)) {
                    problems.add(HclProblem.of(e));
                }
            }
        }
        HclBody body = body(new HclBody(rest), root, 1);
        // var files' problems first, then the job file's in file order (problems without a line first)
        problems.sort(java.util.Comparator.comparingInt((HclProblem p) -> p.file() == null ? 1 : 0)
                .thenComparingInt(HclProblem::line).thenComparingInt(HclProblem::col));
        return new Result(body, List.copyOf(problems), Set.copyOf(failed));
    }

    /** A problem that only repeats one reported where it starts: a variable without a value, a failed local. */
    private static boolean isConsequence(HclSyntaxException e) {
        return e.getMessage().endsWith(NO_VALUE) || e.getMessage().contains(LOCAL_FAILED);
    }

    private HclBody body(HclBody in, HclScope scope, int blockLine) {
        List<HclItem> out = new ArrayList<>();
        for (HclItem item : in.items()) {
            if (item instanceof HclAttribute a) {
                try {
                    out.add(new HclAttribute(a.name(), literal(a.value(), scope), a.line()));
                } catch (HclSyntaxException e) {
                    if (!isConsequence(e)) { // said once, where it starts
                        problems.add(HclProblem.of(e.line() == 0 ? new HclSyntaxException(a.line(), e.getMessage()) : e));
                    }
                    failed.add(blockLine + ":" + a.name());
                }
            } else if (item instanceof HclBlock b && b.type().equals("dynamic")) {
                out.addAll(HclDynamicBlocks.expand(b, scope, this));
            } else if (item instanceof HclBlock b) {
                out.add(new HclBlock(b.type(), b.labels(), body(b.body(), scope, b.line()), b.line()));
            }
        }
        return new HclBody(out);
    }

    HclBody evaluateBody(HclBody in, HclScope scope, int blockLine) {
        return body(in, scope, blockLine);
    }

    void problem(HclSyntaxException e) {
        problems.add(HclProblem.of(e));
    }

    Object eval(HclValue v, HclScope scope) throws HclSyntaxException {
        return ev.eval(HclVariables.expr(v), scope);
    }

    /** A literal with the lines of the source where it has a literal shape (objects and lists keep theirs). */
    private HclValue literal(HclValue v, HclScope scope) throws HclSyntaxException {
        if (v instanceof HclValue.Str s) {
            if (!HclTemplate.hasSequences(s.value())) {
                return v;
            }
            Object out = ev.literal(s, 0, scope);
            return out instanceof String str ? new HclValue.Str(str, s.line()) : HclValues.literal(out, s.line());
        } else if (v instanceof HclValue.ListValue l) {
            List<HclValue> items = new ArrayList<>();
            for (HclValue item : l.items()) {
                items.add(literal(item, scope));
            }
            return new HclValue.ListValue(items, l.line());
        } else if (v instanceof HclValue.ObjectValue o) {
            List<HclAttribute> entries = new ArrayList<>();
            for (HclAttribute a : o.entries()) {
                entries.add(new HclAttribute(a.name(), literal(a.value(), scope), a.line()));
            }
            return new HclValue.ObjectValue(entries, o.line());
        }
        if (!(v instanceof HclValue.Expr e)) {
            return v;
        }
        if (e.expr() instanceof HclExpr.ObjectCons o) {
            List<HclAttribute> entries = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < o.keys().size(); i++) {
                HclExpr k = o.keys().get(i);
                String key;
                try {
                    key = HclValues.str(ev.eval(k, scope));
                } catch (ValueException x) {
                    throw new HclSyntaxException(k.line(), k.col(), "object key: " + x.getMessage());
                }
                if (!seen.add(key)) {
                    throw new HclSyntaxException(k.line(), k.col(), "duplicate key " + key);
                }
                HclExpr value = o.values().get(i);
                HclValue lv = literal(value instanceof HclExpr.Literal l ? l.value() : new HclValue.Expr(value, value.line()), scope);
                entries.add(new HclAttribute(key, lv, k.line()));
            }
            return new HclValue.ObjectValue(entries, o.line());
        }
        if (e.expr() instanceof HclExpr.Tuple t) {
            List<HclValue> items = new ArrayList<>();
            for (HclExpr x : t.items()) {
                items.add(literal(x instanceof HclExpr.Literal l ? l.value() : new HclValue.Expr(x, x.line()), scope));
            }
            return new HclValue.ListValue(items, t.line());
        }
        return HclValues.literal(ev.eval(e.expr(), scope), e.line());
    }

    /** {@code var} and {@code local} at the root; locals are evaluated on first use, a cycle is a problem. */
    private final class RootScope implements HclScope {
        private final Map<String, HclVariables.Declared> declared;
        private final Map<String, Object> values;
        private final Map<String, HclAttribute> locals;
        private final Map<String, Object> localValues = new LinkedHashMap<>();
        private final Map<String, HclSyntaxException> localProblems = new LinkedHashMap<>();
        private final Set<String> evaluating = new HashSet<>();

        RootScope(Map<String, HclVariables.Declared> declared, Map<String, Object> values, Map<String, HclAttribute> locals) {
            this.declared = declared;
            this.values = values;
            this.locals = locals;
        }

        @Override
        public Optional<Object> lookup(String name) {
            return Optional.empty();
        }

        @Override
        public Object variable(String name, int line, int col) throws HclSyntaxException {
            if (!declared.containsKey(name)) {
                throw new HclSyntaxException(line, col, "no variable \"" + name + "\" is declared"
                        + (declared.isEmpty() ? " (declare it: variable \"" + name + "\" { ... })"
                                : " (declared: " + String.join(", ", declared.keySet()) + ")"));
            }
            if (!values.containsKey(name)) {
                throw new HclSyntaxException(line, col, "variable \"" + name + NO_VALUE);
            }
            return values.get(name);
        }

        @Override
        public Object local(String name, int line, int col) throws HclSyntaxException {
            if (localValues.containsKey(name)) {
                return localValues.get(name);
            }
            if (localProblems.containsKey(name)) {
                throw new HclSyntaxException(line, col, "local." + name + LOCAL_FAILED + localProblems.get(name).line() + ")");
            }
            HclAttribute def = locals.get(name);
            if (def == null) {
                throw new HclSyntaxException(line, col, "no local \"" + name + "\" is defined"
                        + (locals.isEmpty() ? " (define it in a locals { ... } block)" : " (defined: " + String.join(", ", locals.keySet()) + ")"));
            }
            if (!evaluating.add(name)) {
                throw new HclSyntaxException(line, col, "local." + name + " refers to itself (through " + String.join(", ", evaluating) + ")");
            }
            try {
                Object v = ev.eval(HclVariables.expr(def.value()), this);
                localValues.put(name, v);
                return v;
            } catch (HclSyntaxException e) {
                localProblems.put(name, e);
                throw e;
            } finally {
                evaluating.remove(name);
            }
        }
    }
}
