package io.drover.agent.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A subset of Nomad's list filter expressions ({@code ?filter=}): {@code Selector == "value"},
 * {@code Selector != "value"}, {@code Selector contains "value"}, combined with {@code and}, {@code or},
 * {@code not} and parentheses ({@code and} binds tighter than {@code or}). A selector names one field of the
 * listed objects (their JSON names, e.g. {@code ClientStatus}); values are double-quoted strings (with
 * {@code \"} and {@code \\}) or bare words such as {@code true}. Parsing checks every selector against the
 * fields the route offers, so a typo is a 400 naming it rather than an empty list. Immutable, thread-safe.
 */
final class FilterExpr {
    private FilterExpr() {}

    /**
     * @param fields the selectors this route offers
     * @return a predicate over a field reader ({@code name -> value as text})
     * @throws ApiException 400 with the problem and where it is
     */
    static Predicate<Function<String, String>> parse(String text, Set<String> fields) throws ApiException {
        Parser p = new Parser(tokens(text), text, fields);
        Predicate<Function<String, String>> out = p.or();
        if (p.pos < p.tokens.size()) {
            throw p.error("unexpected \"" + p.tokens.get(p.pos) + "\"");
        }
        return out;
    }

    private record Token(String text, boolean quoted) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static List<Token> tokens(String s) throws ApiException {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(' || c == ')') {
                out.add(new Token(String.valueOf(c), false));
                i++;
            } else if (c == '=' || c == '!') {
                if (i + 1 >= s.length() || s.charAt(i + 1) != '=') {
                    throw ApiException.badRequest("filter: expected == or != at character " + (i + 1));
                }
                out.add(new Token(c + "=", false));
                i += 2;
            } else if (c == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (true) {
                    if (i >= s.length()) {
                        throw ApiException.badRequest("filter: unterminated string");
                    }
                    char d = s.charAt(i++);
                    if (d == '"') {
                        break;
                    }
                    if (d == '\\' && i < s.length()) {
                        d = s.charAt(i++);
                    }
                    b.append(d);
                }
                out.add(new Token(b.toString(), true));
            } else {
                int start = i;
                while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && "()=!\"".indexOf(s.charAt(i)) < 0) {
                    i++;
                }
                out.add(new Token(s.substring(start, i), false));
            }
        }
        return out;
    }

    private static final class Parser {
        final List<Token> tokens;
        final String text;
        final Set<String> fields;
        int pos;

        Parser(List<Token> tokens, String text, Set<String> fields) {
            this.tokens = tokens;
            this.text = text;
            this.fields = fields;
        }

        ApiException error(String what) {
            return ApiException.badRequest("filter \"" + text + "\": " + what);
        }

        boolean word(String w) {
            if (pos < tokens.size() && !tokens.get(pos).quoted() && tokens.get(pos).text().equals(w)) {
                pos++;
                return true;
            }
            return false;
        }

        Token next(String expected) throws ApiException {
            if (pos >= tokens.size()) {
                throw error("expected " + expected + " at the end");
            }
            return tokens.get(pos++);
        }

        Predicate<Function<String, String>> or() throws ApiException {
            Predicate<Function<String, String>> left = and();
            while (word("or")) {
                left = left.or(and());
            }
            return left;
        }

        Predicate<Function<String, String>> and() throws ApiException {
            Predicate<Function<String, String>> left = unary();
            while (word("and")) {
                left = left.and(unary());
            }
            return left;
        }

        Predicate<Function<String, String>> unary() throws ApiException {
            if (word("not")) {
                return unary().negate();
            }
            if (word("(")) {
                Predicate<Function<String, String>> inner = or();
                if (!word(")")) {
                    throw error("expected )");
                }
                return inner;
            }
            Token sel = next("a selector");
            if (sel.quoted() || !fields.contains(sel.text())) {
                throw error("unknown selector \"" + sel + "\"; one of " + String.join(", ", new java.util.TreeSet<>(
                        fields)));
            }
            Token op = next("==, != or contains");
            Token value = next("a value");
            String field = sel.text();
            String v = value.text();
            return switch (op.quoted() ? "" : op.text()) {
                case "==" -> r -> v.equals(r.apply(field));
                case "!=" -> r -> !v.equals(r.apply(field));
                case "contains" -> r -> {
                    String got = r.apply(field);
                    return got != null && got.contains(v);
                };
                default -> throw error("expected ==, != or contains after " + field + ", found \"" + op + "\"");
            };
        }
    }
}
