package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclToken.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recursive-descent parser of a strict subset of HCL v2's native syntax: bodies of attributes and blocks,
 * literal values (strings, heredocs, numbers, booleans, null, lists, objects). No expressions, functions or
 * variables: {@code ${...}} stays text inside strings. A single-line block holds at most one attribute, as in
 * HCL v2. Pure; throws only {@link HclSyntaxException} (nesting deeper than {@value #MAX_DEPTH} is refused).
 */
public final class HclParser {
    /** Deepest nesting of blocks, lists and objects accepted. */
    public static final int MAX_DEPTH = 64;

    private final List<HclToken> tokens;
    private int pos;
    private int depth;

    private HclParser(List<HclToken> tokens) {
        this.tokens = tokens;
    }

    /** Parses a whole file. */
    public static HclBody parse(String text) throws HclSyntaxException {
        HclParser parser = new HclParser(HclLexer.tokenize(text));
        HclBody body = parser.body(Kind.EOF);
        parser.expect(Kind.EOF, "an attribute or a block");
        return body;
    }

    private HclToken peek() {
        return tokens.get(pos);
    }

    private HclToken next() {
        HclToken t = tokens.get(pos);
        if (t.kind() != Kind.EOF) {
            pos++;
        }
        return t;
    }

    private boolean at(Kind kind) {
        return peek().kind() == kind;
    }

    private HclToken expect(Kind kind, String what) throws HclSyntaxException {
        HclToken t = peek();
        if (t.kind() != kind) {
            throw unexpected(t, what);
        }
        return next();
    }

    private static HclSyntaxException unexpected(HclToken t, String expected) {
        return new HclSyntaxException(t.line(), "expected " + expected + ", found " + t.describe());
    }

    private void skipNewlines() {
        while (at(Kind.NEWLINE)) {
            next();
        }
    }

    private void enter(int line) throws HclSyntaxException {
        if (++depth > MAX_DEPTH) {
            throw new HclSyntaxException(line, "nested more than " + MAX_DEPTH + " levels deep");
        }
    }

    /** Items up to (not including) {@code end}: a closing brace or the end of file. */
    private HclBody body(Kind end) throws HclSyntaxException {
        List<HclItem> items = new ArrayList<>();
        Map<String, Integer> attributeLines = new HashMap<>();
        while (true) {
            skipNewlines();
            if (at(end) || at(Kind.EOF)) {
                return new HclBody(items);
            }
            HclItem item = item();
            if (item instanceof HclAttribute a) {
                Integer first = attributeLines.putIfAbsent(a.name(), a.line());
                if (first != null) {
                    throw new HclSyntaxException(a.line(),
                            "duplicate attribute " + a.name() + " (first set at line " + first + ")");
                }
            }
            items.add(item);
            if (!at(Kind.EOF)) {
                expect(Kind.NEWLINE, "a newline after " + describe(item));
            }
        }
    }

    private static String describe(HclItem item) {
        return item instanceof HclAttribute a ? "attribute " + a.name() : "block " + ((HclBlock) item).type();
    }

    private HclItem item() throws HclSyntaxException {
        HclToken name = expect(Kind.IDENT, "an attribute name or a block type");
        if (at(Kind.EQUALS)) {
            next();
            return new HclAttribute(name.text(), value(), name.line());
        }
        List<String> labels = new ArrayList<>();
        while (at(Kind.STRING) || at(Kind.IDENT)) {
            labels.add(next().text());
        }
        HclToken open = peek();
        if (open.kind() != Kind.LBRACE) {
            throw unexpected(open, labels.isEmpty() ? "\"=\" or \"{\" after " + name.text() : "\"{\"");
        }
        next();
        enter(open.line());
        HclBody body;
        if (at(Kind.NEWLINE)) {
            body = body(Kind.RBRACE);
        } else if (at(Kind.RBRACE)) {
            body = new HclBody(List.of());
        } else {
            HclToken attrName = expect(Kind.IDENT, "an attribute name or a newline");
            expect(Kind.EQUALS, "\"=\" (a single-line block holds one attribute)");
            body = new HclBody(List.of(new HclAttribute(attrName.text(), value(), attrName.line())));
        }
        expect(Kind.RBRACE, "\"}\" closing block " + name.text() + " of line " + name.line());
        depth--;
        return new HclBlock(name.text(), labels, body, name.line());
    }

    private HclValue value() throws HclSyntaxException {
        HclToken t = next();
        return switch (t.kind()) {
            case STRING -> new HclValue.Str(t.text(), t.line());
            case NUMBER -> new HclValue.Num(number(t.text(), false, t.line()), t.line());
            case MINUS -> {
                HclToken n = expect(Kind.NUMBER, "a number after \"-\"");
                yield new HclValue.Num(number(n.text(), true, n.line()), t.line());
            }
            case IDENT -> switch (t.text()) {
                case "true" -> new HclValue.Bool(true, t.line());
                case "false" -> new HclValue.Bool(false, t.line());
                case "null" -> new HclValue.Null(t.line());
                default -> throw new HclSyntaxException(t.line(), "expected a value, found identifier " + t.text()
                        + " (variables and expressions are not supported; quote strings)");
            };
            case LBRACKET -> list(t.line());
            case LBRACE -> object(t.line());
            default -> throw unexpected(t, "a value");
        };
    }

    private static Number number(String text, boolean negative, int line) throws HclSyntaxException {
        String s = negative ? "-" + text : text;
        try {
            if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
                return Long.parseLong(s);
            }
            double d = Double.parseDouble(s);
            if (Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new HclSyntaxException(line, "number out of range: " + s);
        }
    }

    private HclValue list(int line) throws HclSyntaxException {
        enter(line);
        List<HclValue> items = new ArrayList<>();
        while (true) {
            skipNewlines();
            if (at(Kind.RBRACKET)) {
                break;
            }
            items.add(value());
            skipNewlines();
            if (at(Kind.COMMA)) {
                next();
            } else if (!at(Kind.RBRACKET)) {
                throw unexpected(peek(), "\",\" or \"]\" in the list of line " + line);
            }
        }
        next();
        depth--;
        return new HclValue.ListValue(items, line);
    }

    private HclValue object(int line) throws HclSyntaxException {
        enter(line);
        List<HclAttribute> entries = new ArrayList<>();
        Map<String, Integer> keyLines = new HashMap<>();
        while (true) {
            skipNewlines();
            if (at(Kind.RBRACE)) {
                break;
            }
            HclToken key = peek();
            if (key.kind() != Kind.IDENT && key.kind() != Kind.STRING) {
                throw unexpected(key, "a key or \"}\" in the object of line " + line);
            }
            next();
            if (!at(Kind.EQUALS) && !at(Kind.COLON)) {
                throw unexpected(peek(), "\"=\" or \":\" after key " + key.text());
            }
            next();
            Integer first = keyLines.putIfAbsent(key.text(), key.line());
            if (first != null) {
                throw new HclSyntaxException(key.line(),
                        "duplicate key " + key.text() + " (first set at line " + first + ")");
            }
            entries.add(new HclAttribute(key.text(), value(), key.line()));
            if (at(Kind.COMMA)) {
                next();
            } else if (!at(Kind.NEWLINE) && !at(Kind.RBRACE)) {
                throw unexpected(peek(), "\",\", a newline or \"}\" in the object of line " + line);
            }
        }
        next();
        depth--;
        return new HclValue.ObjectValue(entries, line);
    }
}
