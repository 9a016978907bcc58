package io.drover.core.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses Go's text/template language: text and {@code {{actions}}} (custom delimiters, {@code {{-}}/{@code -}}}
 * trim markers, {@code {{/* comments *}{@literal /}}}), pipelines with variables ({@code :=}, {@code =}),
 * {@code if}/{@code else if}/{@code else}, {@code range} (with {@code $i, $v :=}), {@code with},
 * {@code define}/{@code template}/{@code block}. Every function named must be one of {@code known}; a call of a
 * Consul, Vault or Nomad-server function is refused naming it. Pure; not thread-safe (one per parse).
 */
final class Parser {
    private final String name;
    private final String src;
    private final String left;
    private final String right;
    private final Set<String> known;
    private final Map<String, List<Node>> defines = new HashMap<>();
    private final List<Item> items = new ArrayList<>();
    private int pos;

    private record Item(int line, String action, String text) {}

    Parser(String name, String src, String left, String right, Set<String> known) {
        this.name = name;
        this.src = src;
        this.left = left;
        this.right = right;
        this.known = known;
    }

    Map<String, List<Node>> defines() {
        return defines;
    }

    List<Node> parse() throws TemplateException {
        scan();
        List<Node> body = new ArrayList<>();
        String end = list(body);
        if (end != null) {
            throw error(items.get(pos - 1).line, "unexpected {{" + end + "}}");
        }
        return body;
    }

    private TemplateException error(int line, String message) {
        return new TemplateException(name + ":" + line + ": " + message);
    }

    /** Splits the source into text and action items, applying trim markers and dropping comments. */
    private void scan() throws TemplateException {
        int i = 0;
        int line = 1;
        StringBuilder text = new StringBuilder();
        while (i < src.length()) {
            int open = src.indexOf(left, i);
            if (open < 0) {
                text.append(src, i, src.length());
                break;
            }
            text.append(src, i, open);
            int actionLine = line + count(src, i, open);
            int start = open + left.length();
            boolean trimLeft = src.startsWith("- ", start) || src.startsWith("-\t", start)
                    || src.startsWith("-\n", start);
            if (trimLeft) {
                start += 1;
                trimTrailing(text);
            }
            int close = findClose(start, actionLine);
            int contentEnd = close;
            boolean trimRight = close - 1 >= start && src.charAt(close - 1) == '-'
                    && close - 2 >= start && Character.isWhitespace(src.charAt(close - 2));
            if (trimRight) {
                contentEnd = close - 1;
            }
            String content = src.substring(start, contentEnd).trim();
            if (!text.isEmpty()) {
                items.add(new Item(actionLine, null, text.toString()));
                text.setLength(0);
            }
            if (!(content.startsWith("/*") && content.endsWith("*/"))) {
                items.add(new Item(actionLine, content, null));
            }
            line = actionLine + count(src, open, close);
            i = close + right.length();
            if (trimRight) {
                while (i < src.length() && Character.isWhitespace(src.charAt(i))) {
                    if (src.charAt(i) == '\n') {
                        line++;
                    }
                    i++;
                }
            }
        }
        if (!text.isEmpty()) {
            items.add(new Item(line, null, text.toString()));
        }
    }

    private static int count(String s, int from, int to) {
        int n = 0;
        for (int k = from; k < to; k++) {
            if (s.charAt(k) == '\n') {
                n++;
            }
        }
        return n;
    }

    private static void trimTrailing(StringBuilder b) {
        int n = b.length();
        while (n > 0 && Character.isWhitespace(b.charAt(n - 1))) {
            n--;
        }
        b.setLength(n);
    }

    /** The index of the right delimiter closing the action at {@code from}, skipping quoted text. */
    private int findClose(int from, int line) throws TemplateException {
        int k = from;
        while (k < src.length()) {
            char c = src.charAt(k);
            if (c == '"' || c == '\'') {
                k++;
                while (k < src.length() && src.charAt(k) != c) {
                    k += src.charAt(k) == '\\' ? 2 : 1;
                }
                k++;
            } else if (c == '`') {
                int e = src.indexOf('`', k + 1);
                k = e < 0 ? src.length() : e + 1;
            } else if (src.startsWith(right, k)) {
                return k;
            } else {
                k++;
            }
        }
        throw error(line, "unclosed action (no " + right + ")");
    }

    /** Parses items into {@code out} until {@code end}/{@code else...}; returns that keyword action, or null at EOF. */
    private String list(List<Node> out) throws TemplateException {
        while (pos < items.size()) {
            Item it = items.get(pos++);
            if (it.text != null) {
                out.add(new Node.Text(it.text));
                continue;
            }
            String a = it.action;
            String kw = keyword(a);
            switch (kw) {
                case "end", "else" -> {
                    return a;
                }
                case "if" -> out.add(ifNode(it.line, a.substring(2)));
                case "range" -> {
                    Node.Pipeline p = pipeline(it.line, a.substring(5));
                    List<Node> body = new ArrayList<>();
                    List<Node> otherwise = new ArrayList<>();
                    branches(it.line, "range", body, otherwise);
                    out.add(new Node.Range(it.line, p, body, otherwise));
                }
                case "with" -> {
                    Node.Pipeline p = pipeline(it.line, a.substring(4));
                    List<Node> body = new ArrayList<>();
                    List<Node> otherwise = new ArrayList<>();
                    branches(it.line, "with", body, otherwise);
                    out.add(new Node.With(it.line, p, body, otherwise));
                }
                case "define", "block" -> {
                    Tokens t = new Tokens(a.substring(kw.length()), it.line);
                    Object n = t.next();
                    if (!(n instanceof Tok.Str s)) {
                        throw error(it.line, kw + " needs a quoted template name");
                    }
                    Node.Pipeline arg = kw.equals("block") ? pipeline(it.line, t.rest()) : null;
                    List<Node> body = new ArrayList<>();
                    String end = list(body);
                    if (end == null || !end.equals("end")) {
                        throw error(it.line, "{{" + kw + "}} without {{end}}");
                    }
                    defines.put(s.value(), body);
                    if (kw.equals("block")) {
                        out.add(new Node.Call(it.line, s.value(), arg));
                    }
                }
                case "template" -> {
                    Tokens t = new Tokens(a.substring(8), it.line);
                    Object n = t.next();
                    if (!(n instanceof Tok.Str s)) {
                        throw error(it.line, "template needs a quoted template name");
                    }
                    String rest = t.rest();
                    out.add(new Node.Call(it.line, s.value(), rest.isBlank() ? null : pipeline(it.line, rest)));
                }
                default -> out.add(new Node.Action(it.line, pipeline(it.line, a)));
            }
        }
        return null;
    }

    private static String keyword(String action) {
        int n = 0;
        while (n < action.length() && Character.isLetter(action.charAt(n))) {
            n++;
        }
        String w = action.substring(0, n);
        return switch (w) {
            case "if", "else", "end", "range", "with", "define", "template", "block" -> w;
            default -> "";
        };
    }

    private Node ifNode(int line, String cond) throws TemplateException {
        Node.Pipeline p = pipeline(line, cond);
        List<Node> then = new ArrayList<>();
        String end = list(then);
        List<Node> otherwise = new ArrayList<>();
        if (end == null) {
            throw error(line, "{{if}} without {{end}}");
        }
        if (end.startsWith("else")) {
            String rest = end.substring(4).trim();
            if (rest.startsWith("if ")) {
                otherwise.add(ifNode(line, rest.substring(2)));
            } else if (rest.startsWith("with ")) {
                throw error(line, "{{else with}} is not supported; nest a {{with}}");
            } else {
                String close = list(otherwise);
                if (close == null || !close.equals("end")) {
                    throw error(line, "{{if}} without {{end}}");
                }
            }
        }
        return new Node.If(line, p, then, otherwise);
    }

    private void branches(int line, String kw, List<Node> body, List<Node> otherwise) throws TemplateException {
        String end = list(body);
        if (end == null) {
            throw error(line, "{{" + kw + "}} without {{end}}");
        }
        if (end.equals("else")) {
            String close = list(otherwise);
            if (close == null || !close.equals("end")) {
                throw error(line, "{{" + kw + "}} without {{end}}");
            }
        } else if (!end.equals("end")) {
            throw error(line, "{{" + end + "}} is not supported in {{" + kw + "}}");
        }
    }

    // ---- pipelines ----

    sealed interface Tok {
        record Str(String value) implements Tok {}

        record Num(Object value) implements Tok {}

        record Ident(String name) implements Tok {}

        record FieldTok(List<String> path) implements Tok {}

        record VarTok(String name, List<String> path) implements Tok {}

        record Sym(String s) implements Tok {}
    }

    private final class Tokens {
        private final String s;
        private final int line;
        private int i;

        Tokens(String s, int line) {
            this.s = s;
            this.line = line;
        }

        String rest() {
            return s.substring(i);
        }

        Tok peek() throws TemplateException {
            int save = i;
            Tok t = next();
            i = save;
            return t;
        }

        Tok next() throws TemplateException {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i >= s.length()) {
                return null;
            }
            char c = s.charAt(i);
            if (c == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (i < s.length() && s.charAt(i) != '"') {
                    char d = s.charAt(i++);
                    if (d == '\\' && i < s.length()) {
                        char e = s.charAt(i++);
                        switch (e) {
                            case 'n' -> b.append('\n');
                            case 't' -> b.append('\t');
                            case 'r' -> b.append('\r');
                            case '\\' -> b.append('\\');
                            case '"' -> b.append('"');
                            default -> b.append('\\').append(e);
                        }
                    } else {
                        b.append(d);
                    }
                }
                if (i >= s.length()) {
                    throw error(line, "unterminated quoted string");
                }
                i++;
                return new Tok.Str(b.toString());
            }
            if (c == '`') {
                int e = s.indexOf('`', i + 1);
                if (e < 0) {
                    throw error(line, "unterminated raw string");
                }
                String v = s.substring(i + 1, e);
                i = e + 1;
                return new Tok.Str(v);
            }
            if (c == '(' || c == ')' || c == '|' || c == ',') {
                i++;
                return new Tok.Sym(String.valueOf(c));
            }
            if (s.startsWith(":=", i)) {
                i += 2;
                return new Tok.Sym(":=");
            }
            if (c == '=') {
                i++;
                return new Tok.Sym("=");
            }
            if (c == '.' && (i + 1 >= s.length() || !Character.isDigit(s.charAt(i + 1)))) {
                return new Tok.FieldTok(path());
            }
            if (c == '$') {
                int st = i++;
                while (i < s.length() && isIdent(s.charAt(i))) {
                    i++;
                }
                String v = s.substring(st, i);
                return new Tok.VarTok(v, path());
            }
            if (Character.isDigit(c) || ((c == '-' || c == '+' || c == '.') && i + 1 < s.length()
                    && Character.isDigit(s.charAt(i + 1)))) {
                int st = i++;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.'
                        || s.charAt(i) == '_')) {
                    i++;
                }
                String n = s.substring(st, i).replace("_", "");
                try {
                    if (n.contains(".") || (n.contains("e") && !n.startsWith("0x"))) {
                        return new Tok.Num(Double.parseDouble(n));
                    }
                    return new Tok.Num(n.startsWith("0x") ? Long.parseLong(n.substring(2), 16) : Long.parseLong(n));
                } catch (NumberFormatException e) {
                    throw error(line, "bad number " + n);
                }
            }
            if (c == '\'') {
                int e = s.indexOf('\'', i + 1);
                if (e < 0 || e == i + 1) {
                    throw error(line, "bad character constant");
                }
                String v = s.substring(i + 1, e);
                i = e + 1;
                return new Tok.Num((long) v.codePointAt(0));
            }
            if (isIdent(c)) {
                int st = i;
                while (i < s.length() && isIdent(s.charAt(i))) {
                    i++;
                }
                return new Tok.Ident(s.substring(st, i));
            }
            throw error(line, "unexpected \"" + c + "\" in action");
        }

        /** A {@code .a.b} chain at the cursor (empty for a lone dot). */
        private List<String> path() {
            List<String> p = new ArrayList<>();
            while (i < s.length() && s.charAt(i) == '.') {
                int st = ++i;
                while (i < s.length() && isIdent(s.charAt(i))) {
                    i++;
                }
                if (i > st) {
                    p.add(s.substring(st, i));
                }
            }
            return p;
        }
    }

    private static boolean isIdent(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    private Node.Pipeline pipeline(int line, String text) throws TemplateException {
        Tokens t = new Tokens(text, line);
        Node.Pipeline p = pipeline(t, line);
        if (t.peek() != null) {
            throw error(line, "unexpected " + describe(t.peek()) + " in action");
        }
        return p;
    }

    private Node.Pipeline pipeline(Tokens t, int line) throws TemplateException {
        List<String> vars = new ArrayList<>();
        boolean assign = false;
        int save = t.i;
        Tok first = t.next();
        if (first instanceof Tok.VarTok v && v.path().isEmpty()) {
            Tok after = t.next();
            if (after instanceof Tok.Sym sym && sym.s().equals(",")) {
                Tok second = t.next();
                Tok op = t.next();
                if (second instanceof Tok.VarTok v2 && op instanceof Tok.Sym s2 && s2.s().equals(":=")) {
                    vars.add(v.name());
                    vars.add(v2.name());
                } else {
                    throw error(line, "bad variable declaration");
                }
            } else if (after instanceof Tok.Sym sym && (sym.s().equals(":=") || sym.s().equals("="))) {
                vars.add(v.name());
                assign = sym.s().equals("=");
            } else {
                t.i = save;
            }
        } else {
            t.i = save;
        }
        List<Node.Command> cmds = new ArrayList<>();
        while (true) {
            List<Node.Arg> args = new ArrayList<>();
            while (true) {
                Tok k = t.peek();
                if (k == null || (k instanceof Tok.Sym s && (s.s().equals("|") || s.s().equals(")")))) {
                    break;
                }
                args.add(operand(t, line));
            }
            if (args.isEmpty()) {
                throw error(line, "missing value in pipeline");
            }
            cmds.add(new Node.Command(args));
            Tok k = t.peek();
            if (k instanceof Tok.Sym s && s.s().equals("|")) {
                t.next();
                continue;
            }
            break;
        }
        return new Node.Pipeline(line, vars, assign, cmds);
    }

    private Node.Arg operand(Tokens t, int line) throws TemplateException {
        Tok k = t.next();
        if (k instanceof Tok.Str s) {
            return new Node.Literal(s.value());
        }
        if (k instanceof Tok.Num n) {
            return new Node.Literal(n.value());
        }
        if (k instanceof Tok.FieldTok f) {
            return new Node.Field(f.path());
        }
        if (k instanceof Tok.VarTok v) {
            return new Node.Var(v.name(), v.path());
        }
        if (k instanceof Tok.Ident id) {
            switch (id.name()) {
                case "true" -> {
                    return new Node.Literal(Boolean.TRUE);
                }
                case "false" -> {
                    return new Node.Literal(Boolean.FALSE);
                }
                case "nil" -> {
                    return new Node.Literal(null);
                }
                default -> {
                    String refusal = Funcs.refusal(id.name());
                    if (refusal != null) {
                        throw error(line, refusal);
                    }
                    if (!known.contains(id.name())) {
                        throw error(line, "function \"" + id.name() + "\" not defined");
                    }
                    return new Node.Func(id.name());
                }
            }
        }
        if (k instanceof Tok.Sym s && s.s().equals("(")) {
            Node.Pipeline inner = pipeline(t, line);
            Tok close = t.next();
            if (!(close instanceof Tok.Sym c) || !c.s().equals(")")) {
                throw error(line, "unclosed left paren");
            }
            List<String> path = new ArrayList<>();
            Tok after = t.peek();
            if (after instanceof Tok.FieldTok f && !f.path().isEmpty() && t.i < t.s.length()
                    && t.s.charAt(t.i) == '.') {
                t.next();
                path.addAll(f.path());
            }
            return new Node.Paren(inner, path);
        }
        throw error(line, "unexpected " + describe(k) + " in operand");
    }

    private static String describe(Tok t) {
        if (t == null) {
            return "end of action";
        }
        if (t instanceof Tok.Sym s) {
            return "\"" + s.s() + "\"";
        }
        return t.toString();
    }
}
