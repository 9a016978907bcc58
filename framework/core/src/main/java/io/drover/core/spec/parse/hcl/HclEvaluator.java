package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates {@link HclExpr}s to plain values ({@link HclValues}) in a {@link HclScope}, with Nomad's jobspec
 * functions ({@link HclFunctions}). A reference no scope knows ({@code attr.*}, {@code node.*},
 * {@code meta.*}, {@code NOMAD_*}) evaluates to its own text in <code>${...}</code>, as Nomad's jobspec
 * parser does, so that the run-time interpolation still sees it. Pure and thread-safe; every problem is an
 * {@link HclSyntaxException} with line and column.
 */
final class HclEvaluator {
    private final HclFunctions functions;

    HclEvaluator(HclFunctions functions) {
        this.functions = functions;
    }

    Object eval(HclExpr e, HclScope scope) throws HclSyntaxException {
        try {
            return evalOrThrow(e, scope);
        } catch (ValueException v) {
            throw new HclSyntaxException(e.line(), e.col(), v.getMessage());
        }
    }

    private Object evalOrThrow(HclExpr e, HclScope scope) throws HclSyntaxException, ValueException {
        Optional<String> runtime = runtimeText(e, scope);
        if (runtime.isPresent()) {
            return "${" + runtime.get() + "}";
        }
        if (e instanceof HclExpr.Literal l) {
            return literal(l.value(), l.col(), scope);
        } else if (e instanceof HclExpr.Template t) {
            return template(t, scope);
        } else if (e instanceof HclExpr.Ref r) {
            return ref(r, scope);
        } else if (e instanceof HclExpr.GetAttr g) {
            if (g.target() instanceof HclExpr.Ref r && r.name().equals("var") && scope.lookup("var").isEmpty()) {
                return scope.variable(g.name(), g.line(), g.col());
            }
            if (g.target() instanceof HclExpr.Ref r && r.name().equals("local") && scope.lookup("local").isEmpty()) {
                return scope.local(g.name(), g.line(), g.col());
            }
            return getAttr(eval(g.target(), scope), g.name(), g);
        } else if (e instanceof HclExpr.Index i) {
            return index(eval(i.target(), scope), eval(i.key(), scope), i);
        } else if (e instanceof HclExpr.Splat s) {
            return splat(s, scope);
        } else if (e instanceof HclExpr.Call c) {
            return call(c, scope);
        } else if (e instanceof HclExpr.Unary u) {
            Object v = eval(u.operand(), scope);
            return u.op().equals("!") ? !HclValues.bool(v) : negate(HclValues.num(v));
        } else if (e instanceof HclExpr.Binary b) {
            return binary(b, scope);
        } else if (e instanceof HclExpr.Conditional c) {
            return HclValues.bool(eval(c.cond(), scope)) ? eval(c.then(), scope) : eval(c.otherwise(), scope);
        } else if (e instanceof HclExpr.Tuple t) {
            List<Object> out = new ArrayList<>();
            for (HclExpr item : t.items()) {
                out.add(eval(item, scope));
            }
            return HclValues.listOf(out);
        } else if (e instanceof HclExpr.ObjectCons o) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (int k = 0; k < o.keys().size(); k++) {
                HclExpr keyExpr = o.keys().get(k);
                String key = HclValues.str(eval(keyExpr, scope));
                if (out.containsKey(key)) {
                    throw new HclSyntaxException(keyExpr.line(), keyExpr.col(), "duplicate key " + key);
                }
                out.put(key, eval(o.values().get(k), scope));
            }
            return java.util.Collections.unmodifiableMap(out);
        } else if (e instanceof HclExpr.For f) {
            return HclForExpressions.eval(this, f, scope);
        }
        throw new IllegalStateException("unknown expression " + e);
    }

    /** A binary operation; a value of the wrong type is reported at the operand that has it. */
    private Object binary(HclExpr.Binary b, HclScope scope) throws HclSyntaxException {
        Object left = eval(b.left(), scope);
        Object[] right = new Object[1];
        try {
            return HclOperators.binary(b.op(), left, () -> right[0] = eval(b.right(), scope));
        } catch (ValueException x) {
            boolean logic = b.op().equals("&&") || b.op().equals("||");
            HclExpr at = b;
            try {
                if (logic) {
                    HclValues.bool(left);
                } else {
                    HclValues.num(left);
                }
                at = b.right();
            } catch (ValueException leftBad) {
                at = b.left();
            }
            throw new HclSyntaxException(at.line(), at.col(), x.getMessage());
        }
    }

    /** A literal's value, its strings rendered as templates. */
    Object literal(HclValue v, int col, HclScope scope) throws HclSyntaxException {
        if (v instanceof HclValue.Str s && HclTemplate.hasSequences(s.value())) {
            boolean heredoc = s.textLine() != s.line();
            return template(new HclExpr.Template(s.value(), s.textLine(), heredoc ? 1 : Math.max(col, 0) + 1, heredoc), scope);
        } else if (v instanceof HclValue.ListValue l) {
            List<Object> out = new ArrayList<>();
            for (HclValue item : l.items()) {
                out.add(literal(item, 0, scope));
            }
            return HclValues.listOf(out);
        } else if (v instanceof HclValue.ObjectValue o) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (HclAttribute a : o.entries()) {
                out.put(a.name(), literal(a.value(), 0, scope));
            }
            return HclValues.sortedMap(out);
        }
        return HclValues.of(v);
    }

    private static Object negate(Number n) {
        return n instanceof Long l ? (Object) Math.negateExact(l) : HclValues.number(-n.doubleValue());
    }

    private Object ref(HclExpr.Ref r, HclScope scope) throws HclSyntaxException {
        Optional<Object> v = scope.lookup(r.name());
        if (v.isPresent()) {
            return v.get() == HclScope.NULL ? null : v.get();
        }
        if (r.name().equals("var") || r.name().equals("local")) {
            throw new HclSyntaxException(r.line(), r.col(), r.name() + " needs an attribute: " + r.name() + ".<name>");
        }
        return "${" + r.name() + "}";
    }

    /**
     * The text of a traversal rooted at a name no scope knows ({@code attr.unique.hostname},
     * {@code meta["x"]}), empty for anything else.
     */
    private Optional<String> runtimeText(HclExpr e, HclScope scope) throws HclSyntaxException {
        if (e instanceof HclExpr.Ref r) {
            if (r.name().equals("var") || r.name().equals("local") || r.name().equals("~") || scope.lookup(r.name()).isPresent()) {
                return Optional.empty();
            }
            return Optional.of(r.name());
        } else if (e instanceof HclExpr.GetAttr g) {
            return runtimeText(g.target(), scope).map(t -> t + "." + g.name());
        } else if (e instanceof HclExpr.Index i && i.key() instanceof HclExpr.Literal l) {
            Optional<String> base = runtimeText(i.target(), scope);
            if (base.isEmpty()) {
                return base;
            }
            Object key = HclValues.of(l.value());
            return Optional.of(base.get() + "[" + (key instanceof String s ? "\"" + s + "\"" : String.valueOf(key)) + "]");
        }
        return Optional.empty();
    }

    private static Object getAttr(Object target, String name, HclExpr at) throws HclSyntaxException {
        if (target instanceof Map<?, ?> m) {
            if (!m.containsKey(name)) {
                throw new HclSyntaxException(at.line(), at.col(), "no attribute " + name + " (has: "
                        + String.join(", ", m.keySet().stream().map(String::valueOf).toList()) + ")");
            }
            return m.get(name);
        }
        throw new HclSyntaxException(at.line(), at.col(), "cannot read ." + name + " of a " + HclValues.typeName(target));
    }

    static Object index(Object target, Object key, HclExpr at) throws HclSyntaxException {
        try {
            if (target instanceof List<?> l) {
                long i = HclValues.integer(key);
                if (i < 0 || i >= l.size()) {
                    throw new HclSyntaxException(at.line(), at.col(), "index " + i + " out of range (the list has "
                            + l.size() + " elements)");
                }
                return l.get((int) i);
            } else if (target instanceof Map<?, ?> m) {
                String k = HclValues.str(key);
                if (!m.containsKey(k)) {
                    throw new HclSyntaxException(at.line(), at.col(), "no key \"" + k + "\" in the map");
                }
                return m.get(k);
            }
        } catch (ValueException e) {
            throw new HclSyntaxException(at.line(), at.col(), "bad index: " + e.getMessage());
        }
        throw new HclSyntaxException(at.line(), at.col(), "cannot index a " + HclValues.typeName(target));
    }

    private Object splat(HclExpr.Splat s, HclScope scope) throws HclSyntaxException {
        Object target = eval(s.target(), scope);
        if (target == null) {
            return List.of();
        }
        List<?> items = target instanceof List<?> l ? l : List.of(target);
        List<Object> out = new ArrayList<>();
        for (Object item : items) {
            out.add(eval(s.each(), scope.with(java.util.Collections.singletonMap("~", item))));
        }
        return HclValues.listOf(out);
    }

    private Object call(HclExpr.Call c, HclScope scope) throws HclSyntaxException, ValueException {
        if (HclFunctions.isLazy(c.name())) {
            return HclFunctions.lazy(c, this, scope);
        }
        List<Object> args = new ArrayList<>();
        for (HclExpr a : c.args()) {
            args.add(eval(a, scope));
        }
        if (c.expandLast() && !args.isEmpty()) {
            Object last = args.remove(args.size() - 1);
            args.addAll(HclValues.list(last));
        }
        return functions.call(c, args, this, scope);
    }

    private Object template(HclExpr.Template t, HclScope scope) throws HclSyntaxException {
        List<HclTemplate.Part> parts = HclTemplate.parse(t);
        if (parts.size() == 1 && parts.get(0) instanceof HclTemplate.Interp i) {
            // "${expr}" alone keeps the expression's type, as in HCL2
            return interp(i, scope);
        }
        StringBuilder sb = new StringBuilder();
        render(parts, scope, sb, t);
        return sb.toString();
    }

    private Object interp(HclTemplate.Interp i, HclScope scope) throws HclSyntaxException {
        if (i.expr() == null || runtimeText(i.expr(), scope).isPresent()) {
            return i.source(); // kept exactly as written, spaces and all
        }
        return eval(i.expr(), scope);
    }

    private void render(List<HclTemplate.Part> parts, HclScope scope, StringBuilder sb, HclExpr.Template t)
            throws HclSyntaxException {
        for (HclTemplate.Part p : parts) {
            try {
                if (p instanceof HclTemplate.Lit l) {
                    sb.append(l.text());
                } else if (p instanceof HclTemplate.Interp i) {
                    sb.append(HclValues.str(interp(i, scope)));
                } else if (p instanceof HclTemplate.If f) {
                    render(HclValues.bool(eval(f.cond(), scope)) ? f.then() : f.otherwise(), scope, sb, t);
                } else if (p instanceof HclTemplate.For f) {
                    Object coll = eval(f.collection(), scope);
                    for (Map.Entry<Object, Object> entry : HclForExpressions.entries(coll)) {
                        Map<String, Object> names = new LinkedHashMap<>();
                        if (f.keyVar() != null) {
                            names.put(f.keyVar(), entry.getKey());
                        }
                        names.put(f.valueVar(), entry.getValue());
                        render(f.body(), scope.with(names), sb, t);
                    }
                }
            } catch (ValueException e) {
                HclExpr at = p instanceof HclTemplate.Interp i ? i.expr() : t;
                throw new HclSyntaxException(at.line(), at.col(), e.getMessage());
            }
        }
    }
}
