package io.drover.core.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a parsed template: one per render, not thread-safe. Variables are scoped to their block as in Go;
 * output is bounded ({@link #MAX_OUTPUT}), and so is template recursion.
 */
final class Evaluator {
    static final int MAX_OUTPUT = 16 << 20;
    private static final int MAX_DEPTH = 100;

    private final String name;
    private final Map<String, List<Node>> defines;
    private final Funcs.Env env;
    private final boolean missingKeyError;
    private final StringBuilder out = new StringBuilder();
    private final List<Map<String, Object>> scopes = new ArrayList<>();
    private final Map<String, Funcs.Fn> extra = new HashMap<>();
    private int depth;

    Evaluator(String name, Map<String, List<Node>> defines, Funcs.Env env, boolean missingKeyError) {
        this.name = name;
        this.defines = defines;
        this.env = env;
        this.missingKeyError = missingKeyError;
        extra.put("executeTemplate", a -> {
            if (a.isEmpty()) {
                throw new TemplateException("executeTemplate needs a template name");
            }
            Evaluator sub = new Evaluator(name, defines, env, missingKeyError);
            sub.depth = depth + 1;
            sub.call(0, String.valueOf(a.get(0)), a.size() > 1 ? a.get(1) : null);
            return sub.out.toString();
        });
    }

    String run(List<Node> nodes, Object dot) throws TemplateException {
        Map<String, Object> root = new HashMap<>();
        root.put("$", dot);
        scopes.add(root);
        exec(nodes, dot);
        return out.toString();
    }

    private TemplateException error(int line, String message) {
        return new TemplateException(name + ":" + line + ": " + message);
    }

    private void exec(List<Node> nodes, Object dot) throws TemplateException {
        for (Node n : nodes) {
            execOne(n, dot);
            if (out.length() > MAX_OUTPUT) {
                throw new TemplateException(name + ": output is larger than " + (MAX_OUTPUT >> 20) + " MiB");
            }
        }
    }

    private void scoped(List<Node> nodes, Object dot) throws TemplateException {
        scopes.add(new HashMap<>());
        try {
            exec(nodes, dot);
        } finally {
            scopes.remove(scopes.size() - 1);
        }
    }

    private void execOne(Node n, Object dot) throws TemplateException {
        if (n instanceof Node.Text t) {
            out.append(t.text());
        } else if (n instanceof Node.Action a) {
            Object v = pipeline(a.pipe(), dot);
            if (a.pipe().vars().isEmpty()) {
                out.append(Values.print(v));
            }
        } else if (n instanceof Node.If f) {
            scopes.add(new HashMap<>());
            try {
                boolean yes = Values.truth(pipeline(f.cond(), dot));
                exec(yes ? f.then() : f.otherwise(), dot);
            } finally {
                scopes.remove(scopes.size() - 1);
            }
        } else if (n instanceof Node.With w) {
            scopes.add(new HashMap<>());
            try {
                Object v = pipeline(w.value(), dot);
                if (Values.truth(v)) {
                    exec(w.body(), v);
                } else {
                    exec(w.otherwise(), dot);
                }
            } finally {
                scopes.remove(scopes.size() - 1);
            }
        } else if (n instanceof Node.Range r) {
            range(r, dot);
        } else if (n instanceof Node.Call c) {
            call(c.line(), c.name(), c.arg() == null ? null : pipeline(c.arg(), dot));
        }
    }

    private void call(int line, String template, Object dot) throws TemplateException {
        List<Node> body = defines.get(template);
        if (body == null) {
            throw error(line, "no such template \"" + template + "\"");
        }
        if (++depth > MAX_DEPTH) {
            throw error(line, "templates nested more than " + MAX_DEPTH + " deep");
        }
        List<Map<String, Object>> saved = new ArrayList<>(scopes);
        scopes.clear();
        Map<String, Object> root = new HashMap<>();
        root.put("$", dot);
        scopes.add(root);
        try {
            exec(body, dot);
        } finally {
            scopes.clear();
            scopes.addAll(saved);
            depth--;
        }
    }

    private void range(Node.Range r, Object dot) throws TemplateException {
        Node.Pipeline p = r.over();
        Node.Pipeline bare = new Node.Pipeline(p.line(), List.of(), false, p.cmds());
        Object v = pipeline(bare, dot);
        List<Object[]> pairs = new ArrayList<>();
        if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                pairs.add(new Object[] {(long) i, l.get(i)});
            }
        } else if (v instanceof Map<?, ?> m) {
            Values.sorted(m).forEach((k, x) -> pairs.add(new Object[] {k, x}));
        } else if (v instanceof Long n) {
            for (long i = 0; i < n; i++) {
                pairs.add(new Object[] {i, i});
            }
        } else if (v != null) {
            throw error(r.line(), "range can't iterate over " + Values.print(v));
        }
        if (pairs.isEmpty()) {
            scoped(r.otherwise(), dot);
            return;
        }
        for (Object[] kv : pairs) {
            Map<String, Object> scope = new HashMap<>();
            if (p.vars().size() == 1) {
                scope.put(p.vars().get(0), kv[1]);
            } else if (p.vars().size() == 2) {
                scope.put(p.vars().get(0), kv[0]);
                scope.put(p.vars().get(1), kv[1]);
            }
            scopes.add(scope);
            try {
                exec(r.body(), kv[1]);
            } finally {
                scopes.remove(scopes.size() - 1);
            }
        }
    }

    private Object pipeline(Node.Pipeline p, Object dot) throws TemplateException {
        Object v = null;
        boolean first = true;
        for (Node.Command c : p.cmds()) {
            v = command(p.line(), c, dot, first ? NONE : v);
            first = false;
        }
        if (!p.vars().isEmpty()) {
            String var = p.vars().get(0);
            if (p.assign()) {
                for (int i = scopes.size() - 1; i >= 0; i--) {
                    if (scopes.get(i).containsKey(var)) {
                        scopes.get(i).put(var, v);
                        return v;
                    }
                }
                throw error(p.line(), "undefined variable: " + var);
            }
            scopes.get(scopes.size() - 1).put(var, v);
        }
        return v;
    }

    private static final Object NONE = new Object();

    private Object command(int line, Node.Command c, Object dot, Object piped) throws TemplateException {
        Node.Arg head = c.args().get(0);
        if (head instanceof Node.Func f) {
            List<Node.Arg> rest = c.args().subList(1, c.args().size());
            if (f.name().equals("and") || f.name().equals("or")) {
                return andOr(line, f.name(), rest, dot, piped);
            }
            List<Object> args = new ArrayList<>();
            for (Node.Arg a : rest) {
                args.add(arg(line, a, dot));
            }
            if (piped != NONE) {
                args.add(piped);
            }
            try {
                return Funcs.of(f.name(), env, extra).call(args);
            } catch (TemplateException e) {
                throw e.getMessage().startsWith(name + ":") ? e
                        : new TemplateException(name + ":" + line + ": " + e.getMessage(), e.waiting());
            } catch (RuntimeException e) {
                throw error(line, f.name() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        }
        if (c.args().size() > 1 || piped != NONE) {
            throw error(line, "can't give argument to non-function " + describe(head));
        }
        return arg(line, head, dot);
    }

    private Object andOr(int line, String fn, List<Node.Arg> rest, Object dot, Object piped)
            throws TemplateException {
        List<Node.Arg> all = new ArrayList<>(rest);
        if (all.isEmpty() && piped == NONE) {
            throw error(line, "wrong number of args for " + fn);
        }
        Object v = null;
        for (Node.Arg a : all) {
            v = arg(line, a, dot);
            if (fn.equals("and") != Values.truth(v)) {
                return v;
            }
        }
        return piped != NONE ? piped : v;
    }

    private Object arg(int line, Node.Arg a, Object dot) throws TemplateException {
        if (a instanceof Node.Literal l) {
            return l.value();
        }
        if (a instanceof Node.Field f) {
            return path(line, dot, f.path());
        }
        if (a instanceof Node.Var v) {
            return path(line, variable(line, v.name()), v.path());
        }
        if (a instanceof Node.Paren p) {
            return path(line, pipeline(p.pipe(), dot), p.path());
        }
        return command(line, new Node.Command(List.of(a)), dot, NONE);
    }

    private Object variable(int line, String var) throws TemplateException {
        for (int i = scopes.size() - 1; i >= 0; i--) {
            if (scopes.get(i).containsKey(var)) {
                return scopes.get(i).get(var);
            }
        }
        throw error(line, "undefined variable: " + var);
    }

    private Object path(int line, Object v, List<String> path) throws TemplateException {
        for (String key : path) {
            if (v instanceof Map<?, ?> m) {
                if (!m.containsKey(key) && missingKeyError) {
                    throw error(line, "map has no entry for key \"" + key + "\"");
                }
                v = m.get(key);
            } else if (v == null) {
                if (missingKeyError) {
                    throw error(line, "nil pointer evaluating ." + key);
                }
                return null;
            } else {
                throw error(line, "can't evaluate field " + key + " in " + Values.print(v));
            }
        }
        return v;
    }

    private static String describe(Node.Arg a) {
        if (a instanceof Node.Field f) {
            return "." + String.join(".", f.path());
        }
        if (a instanceof Node.Var v) {
            return v.name();
        }
        if (a instanceof Node.Literal l) {
            return Values.print(l.value());
        }
        return "value";
    }
}
