package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job file's {@code variable} blocks and their values (defaults, {@code NOMAD_VAR_*}, {@code -var-file},
 * {@code -var}, in rising precedence), converted to their types and checked by their {@code validation}
 * blocks. Every problem is collected, none thrown. Pure.
 */
final class HclVariables {
    private static final List<String> VARIABLE_KEYS = List.of("type", "default", "description", "sensitive", "nullable");

    /** A declared variable. */
    /** A declared variable; {@code broken} when its block had a problem (reported; no "has no value" then). */
    record Declared(String name, HclTypes type, boolean hasDefault, Object dflt, List<HclBlock> validations, int line,
            boolean broken) {}

    private HclVariables() {}

    static HclExpr expr(HclValue v) {
        return v instanceof HclValue.Expr e ? e.expr() : new HclExpr.Literal(v, v.line(), 0);
    }

    /** Reads the declarations; problems go to {@code problems}. */
    static Map<String, Declared> declare(List<HclBlock> blocks, HclEvaluator ev, HclScope empty, List<HclProblem> problems) {
        Map<String, Declared> out = new LinkedHashMap<>();
        for (HclBlock b : blocks) {
            if (b.labels().size() != 1) {
                problems.add(new HclProblem(null, b.line(), 0, "variable takes exactly one label, its name: variable \"<name>\" { ... }"));
                continue;
            }
            String name = b.labels().get(0);
            if (out.containsKey(name)) {
                problems.add(new HclProblem(null, b.line(), 0, "variable \"" + name + "\" declared more than once (first at line "
                        + out.get(name).line() + ")"));
                continue;
            }
            HclTypes type = HclTypes.ANY;
            Object dflt = null;
            boolean hasDefault = false;
            List<HclBlock> validations = new ArrayList<>();
            boolean ok = true;
            for (HclItem item : b.body().items()) {
                if (item instanceof HclBlock vb && vb.type().equals("validation")) {
                    validations.add(vb);
                    continue;
                }
                if (!(item instanceof HclAttribute a) || !VARIABLE_KEYS.contains(a.name())) {
                    String key = item instanceof HclAttribute a ? a.name() : ((HclBlock) item).type();
                    problems.add(new HclProblem(null, item.line(), 0, "variable \"" + name + "\" > " + key
                            + ": unknown key (allowed: type, default, description, sensitive, nullable, validation)"));
                    continue;
                }
                try {
                    if (a.name().equals("type")) {
                        type = HclTypes.parse(expr(a.value()));
                    } else if (a.name().equals("default")) {
                        dflt = ev.eval(expr(a.value()), empty);
                        hasDefault = true;
                    }
                } catch (HclSyntaxException e) {
                    problems.add(HclProblem.of(e));
                    ok = false;
                }
            }
            if (hasDefault && ok) {
                try {
                    dflt = HclTypes.convert(dflt, type);
                } catch (ValueException e) {
                    problems.add(new HclProblem(null, b.line(), 0, "variable \"" + name + "\": its default is not a "
                            + HclTypes.show(type) + ": " + e.getMessage()));
                    ok = false;
                }
            }
            out.put(name, new Declared(name, type, hasDefault && ok, dflt, validations, b.line(), !ok));
        }
        return out;
    }

    /** The value of every declared variable that has one; a variable without any is a problem. */
    static Map<String, Object> values(Map<String, Declared> declared, HclInputs inputs, HclEvaluator ev, HclScope empty,
            List<HclProblem> problems) {
        Map<String, Object> values = new LinkedHashMap<>();
        declared.values().forEach(d -> {
            if (d.hasDefault()) {
                values.put(d.name(), d.dflt());
            }
        });
        inputs.env().forEach((name, text) -> {
            Declared d = declared.get(name);
            if (d != null) {
                fromText(d, text, "environment variable " + HclInputs.ENV_PREFIX + name, ev, empty, problems)
                        .ifPresent(v -> values.put(name, v));
            }
        });
        for (HclInputs.Source file : inputs.files()) {
            fromFile(file, declared, values, ev, empty, problems);
        }
        inputs.flags().forEach((name, text) -> {
            Declared d = declared.get(name);
            if (d == null) {
                problems.add(new HclProblem(null, 0, 0, "-var " + name + ": no variable \"" + name + "\" is declared in the job file"
                        + (declared.isEmpty() ? "" : " (declared: " + String.join(", ", declared.keySet()) + ")")));
                return;
            }
            fromText(d, text, "-var " + name, ev, empty, problems).ifPresent(v -> values.put(name, v));
        });
        for (Declared d : declared.values()) {
            if (!values.containsKey(d.name()) && !d.broken()) {
                problems.add(new HclProblem(null, d.line(), 0, "Unset variable \"" + d.name() + "\": a used variable must be "
                        + "set or have a default value (-var " + d.name() + "=..., a -var-file or "
                        + HclInputs.ENV_PREFIX + d.name() + ")"));
            }
        }
        return values;
    }

    private static Optional<Object> fromText(Declared d, String text, String from, HclEvaluator ev, HclScope empty,
            List<HclProblem> problems) {
        try {
            Object raw;
            if (d.type() instanceof HclTypes.Prim p && !p.name().equals("any") || d.type() == HclTypes.ANY) {
                raw = text; // a string, converted to number or bool by the type
            } else {
                raw = ev.eval(HclExprParser.parseStandalone(text, 1, 1), empty);
            }
            return Optional.ofNullable(HclTypes.convert(raw, d.type()));
        } catch (HclSyntaxException e) {
            problems.add(new HclProblem(null, 0, 0, from + ": " + e.getMessage()));
        } catch (ValueException e) {
            problems.add(new HclProblem(null, 0, 0, from + ": not a " + HclTypes.show(d.type()) + ": " + e.getMessage()));
        }
        return Optional.empty();
    }

    private static void fromFile(HclInputs.Source file, Map<String, Declared> declared, Map<String, Object> values,
            HclEvaluator ev, HclScope empty, List<HclProblem> problems) {
        HclBody body;
        try {
            body = HclParser.parse(file.text());
        } catch (HclSyntaxException e) {
            problems.add(HclProblem.in(file.name(), e));
            return;
        }
        for (HclItem item : body.items()) {
            if (!(item instanceof HclAttribute a)) {
                problems.add(new HclProblem(file.name(), item.line(), 0, "a variables file holds name = value lines only"));
                continue;
            }
            Declared d = declared.get(a.name());
            if (d == null) {
                problems.add(new HclProblem(file.name(), a.line(), 0, a.name() + ": no variable \"" + a.name()
                        + "\" is declared in the job file"));
                continue;
            }
            try {
                values.put(a.name(), HclTypes.convert(ev.eval(expr(a.value()), empty), d.type()));
            } catch (HclSyntaxException e) {
                problems.add(HclProblem.in(file.name(), e));
            } catch (ValueException e) {
                problems.add(new HclProblem(file.name(), a.line(), 0, a.name() + ": not a " + HclTypes.show(d.type())
                        + ": " + e.getMessage()));
            }
        }
    }

    /** Runs every validation block of the variables that have values. */
    static void validate(Map<String, Declared> declared, Map<String, Object> values, HclEvaluator ev, HclScope scope,
            List<HclProblem> problems) {
        for (Declared d : declared.values()) {
            if (!values.containsKey(d.name())) {
                continue;
            }
            for (HclBlock v : d.validations()) {
                HclValue cond = attribute(v, "condition");
                HclValue message = attribute(v, "error_message");
                if (cond == null || message == null) {
                    problems.add(new HclProblem(null, v.line(), 0, "variable \"" + d.name()
                            + "\" > validation: needs condition and error_message"));
                    continue;
                }
                try {
                    boolean holds = HclValues.bool(ev.eval(expr(cond), scope));
                    if (!holds) {
                        problems.add(new HclProblem(null, cond.line(), 0, "variable \"" + d.name() + "\": "
                                + HclValues.str(ev.eval(expr(message), scope))));
                    }
                } catch (HclSyntaxException e) {
                    problems.add(HclProblem.of(e));
                } catch (ValueException e) {
                    problems.add(new HclProblem(null, cond.line(), 0, "variable \"" + d.name()
                            + "\" > validation: the condition must be true or false: " + e.getMessage()));
                }
            }
        }
    }

    private static HclValue attribute(HclBlock b, String name) {
        return b.body().attributes().stream().filter(a -> a.name().equals(name)).map(HclAttribute::value).findFirst()
                .orElse(null);
    }
}
