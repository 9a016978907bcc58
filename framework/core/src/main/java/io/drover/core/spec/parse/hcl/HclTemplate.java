package io.drover.core.spec.parse.hcl;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HCL2 string templates: {@code ${expr}} interpolations and {@code %{ if }}/{@code %{ else }}/{@code %{ endif }},
 * {@code %{ for x in coll }}/{@code %{ endfor }} directives, with the {@code ~} whitespace strip markers. The
 * escapes <code>$${</code> and <code>%%{</code> stay as written (the run-time interpolation turns them into
 * literal <code>${</code> and <code>%{</code>). Parsing is pure; {@link HclEvaluator} renders the parts.
 */
final class HclTemplate {
    private static final Pattern FOR = Pattern.compile("for\\s+([A-Za-z_][\\w-]*)\\s*(?:,\\s*([A-Za-z_][\\w-]*)\\s*)?in\\s+(.+)",
            Pattern.DOTALL);

    private HclTemplate() {}

    sealed interface Part permits Lit, Interp, If, For {}

    record Lit(String text) implements Part {}

    /**
     * {@code source} is the whole {@code ${...}} as written, kept when the expression is a run-time reference, or
     * when it is no HCL expression ({@code expr} null).
     */
    record Interp(HclExpr expr, String source) implements Part {}

    record If(HclExpr cond, List<Part> then, List<Part> otherwise) implements Part {}

    record For(String keyVar, String valueVar, HclExpr collection, List<Part> body) implements Part {}

    /** Whether a string holds a {@code ${} or {@code %{} sequence (other than the escapes). */
    static boolean hasSequences(String s) {
        for (int i = 0; i + 1 < s.length(); i++) {
            char c = s.charAt(i);
            if ((c == '$' || c == '%') && s.charAt(i + 1) == c && i + 2 < s.length() && s.charAt(i + 2) == '{') {
                i += 2;
            } else if ((c == '$' || c == '%') && s.charAt(i + 1) == '{') {
                return true;
            }
        }
        return false;
    }

    /** A flat piece before the directives are nested. */
    private record Piece(char kind, String text, boolean stripBefore, boolean stripAfter, int line, int col) {}

    static List<Part> parse(HclExpr.Template t) throws HclSyntaxException {
        List<Piece> pieces = scan(t);
        int[] at = {0};
        List<Part> parts = nest(pieces, at, t, "");
        return parts;
    }

    private static List<Piece> scan(HclExpr.Template t) throws HclSyntaxException {
        String s = t.text();
        List<Piece> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int line = t.line();
        int col = t.col();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if ((c == '$' || c == '%') && i + 2 < s.length() && s.charAt(i + 1) == c && s.charAt(i + 2) == '{') {
                lit.append(c).append(c).append('{');
                i += 3;
                col += 3;
                continue;
            }
            if ((c == '$' || c == '%') && i + 1 < s.length() && s.charAt(i + 1) == '{') {
                int end = closing(s, i + 2, line);
                String inner = s.substring(i + 2, end);
                boolean stripBefore = inner.startsWith("~");
                boolean stripAfter = inner.endsWith("~") && inner.length() > (stripBefore ? 1 : 0);
                String content = inner.substring(stripBefore ? 1 : 0, inner.length() - (stripAfter ? 1 : 0));
                if (!lit.isEmpty()) {
                    out.add(new Piece('L', lit.toString(), false, false, line, col));
                    lit.setLength(0);
                }
                out.add(new Piece(c == '$' ? 'I' : 'D', c == '$' ? s.substring(i, end + 1) + "\u0000" + content : content,
                        stripBefore, stripAfter, line, col + 2 + (stripBefore ? 1 : 0)));
                for (int k = i; k <= end; k++) {
                    if (s.charAt(k) == '\n') {
                        line++;
                        col = 0;
                    }
                    col++;
                }
                i = end + 1;
                continue;
            }
            lit.append(c);
            if (c == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
            i++;
        }
        if (!lit.isEmpty()) {
            out.add(new Piece('L', lit.toString(), false, false, line, col));
        }
        // strip markers
        for (int k = 0; k < out.size(); k++) {
            Piece p = out.get(k);
            if (p.kind() == 'L') {
                String text = p.text();
                if (k > 0 && out.get(k - 1).stripAfter()) {
                    text = text.stripLeading();
                }
                if (k + 1 < out.size() && out.get(k + 1).stripBefore()) {
                    text = text.stripTrailing();
                }
                out.set(k, new Piece('L', text, false, false, p.line(), p.col()));
            }
        }
        return out;
    }

    /** Index of the '}' closing a sequence whose content starts at {@code from}: braces and strings nest. */
    private static int closing(String s, int from, int line) throws HclSyntaxException {
        int depth = 1;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                for (i++; i < s.length() && s.charAt(i) != '"'; i++) {
                    if (s.charAt(i) == '\\') {
                        i++;
                    }
                }
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new HclSyntaxException(line, "unterminated ${ ... } in string");
    }

    private static List<Part> nest(List<Piece> pieces, int[] at, HclExpr.Template t, String closer)
            throws HclSyntaxException {
        List<Part> parts = new ArrayList<>();
        while (at[0] < pieces.size()) {
            Piece p = pieces.get(at[0]);
            if (p.kind() == 'L') {
                parts.add(new Lit(p.text()));
                at[0]++;
            } else if (p.kind() == 'I') {
                int split = p.text().indexOf('\u0000');
                String source = p.text().substring(0, split);
                String content = p.text().substring(split + 1);
                parts.add(new Interp(expression(content, p, source), source));
                at[0]++;
            } else {
                String d = p.text().strip();
                String word = d.split("\\s+", 2)[0];
                if (word.equals("else") || word.equals("endif") || word.equals("endfor")) {
                    if (closer.isEmpty() || (word.equals("endfor") != closer.equals("endfor"))
                            || (word.equals("else") && !closer.equals("endif"))) {
                        throw new HclSyntaxException(p.line(), p.col(), "unexpected %{ " + word + " } in the template");
                    }
                    return parts;
                }
                at[0]++;
                if (word.equals("if")) {
                    HclExpr cond = expressionOrFail(d.substring(2), p);
                    List<Part> then = nest(pieces, at, t, "endif");
                    List<Part> otherwise = List.of();
                    if (at[0] < pieces.size() && pieces.get(at[0]).text().strip().equals("else")) {
                        at[0]++;
                        otherwise = nest(pieces, at, t, "endif");
                    }
                    expectEnd(pieces, at, "endif", p);
                    parts.add(new If(cond, then, otherwise));
                } else if (word.equals("for")) {
                    Matcher m = FOR.matcher(d);
                    if (!m.matches()) {
                        throw new HclSyntaxException(p.line(), p.col(), "expected %{ for NAME in EXPR } in the template");
                    }
                    HclExpr coll = expressionOrFail(m.group(3), p);
                    List<Part> body = nest(pieces, at, t, "endfor");
                    expectEnd(pieces, at, "endfor", p);
                    String keyVar = m.group(2) == null ? null : m.group(1);
                    String valueVar = m.group(2) == null ? m.group(1) : m.group(2);
                    parts.add(new For(keyVar, valueVar, coll, body));
                } else {
                    throw new HclSyntaxException(p.line(), p.col(), "unknown template directive %{ " + word
                            + " } (allowed: if, else, endif, for, endfor)");
                }
            }
        }
        if (!closer.isEmpty()) {
            throw new HclSyntaxException(t.line(), t.col(), "template has no %{ " + closer + " }");
        }
        return parts;
    }

    private static void expectEnd(List<Piece> pieces, int[] at, String word, Piece opener) throws HclSyntaxException {
        if (at[0] >= pieces.size() || !pieces.get(at[0]).text().strip().equals(word)) {
            throw new HclSyntaxException(opener.line(), opener.col(), "%{ " + opener.text().strip().split("\\s+")[0]
                    + " } has no %{ " + word + " }");
        }
        at[0]++;
    }

    private static HclExpr expressionOrFail(String text, Piece p) throws HclSyntaxException {
        return HclExprParser.parseStandalone(text, p.line(), p.col());
    }

    /**
     * The expression of {@code ${...}}; text that is no HCL expression (a shell's <code>${HOME:-x}</code>) stays
     * verbatim for the run-time interpolation, unless it names {@code var.} or {@code local.}.
     */
    private static HclExpr expression(String content, Piece p, String source) throws HclSyntaxException {
        try {
            return HclExprParser.parseStandalone(content, p.line(), p.col());
        } catch (HclSyntaxException e) {
            if (content.contains("var.") || content.contains("local.")) {
                throw e;
            }
            return null; // see Interp: kept verbatim
        }
    }
}
