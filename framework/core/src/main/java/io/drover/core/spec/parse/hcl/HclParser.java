package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclToken.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recursive-descent parser of HCL v2's native syntax: bodies of attributes and blocks whose values are
 * literals (strings, heredocs, numbers, booleans, null, lists, objects) or HCL2 expressions
 * ({@link HclExprParser}: kept as {@link HclValue.Expr} for {@link HclEvaluator}). A single-line block holds
 * at most one attribute, as in HCL v2. A bare word as a whole value ({@code type = batch}) is refused with a
 * hint to quote it, outside {@code variable} blocks (whose {@code type} is a type such as {@code string}).
 * Pure; throws only {@link HclSyntaxException} (nesting deeper than {@value #MAX_DEPTH} is refused).
 */
public final class HclParser {
    /** Deepest nesting of blocks, lists and objects accepted. */
    public static final int MAX_DEPTH = HclTokenCursor.MAX_DEPTH;

    private final HclTokenCursor in;
    private final HclExprParser expressions;

    private HclParser(List<HclToken> tokens) {
        this.in = new HclTokenCursor(tokens);
        this.expressions = new HclExprParser(in);
    }

    /** Parses a whole file. */
    public static HclBody parse(String text) throws HclSyntaxException {
        HclParser parser = new HclParser(HclLexer.tokenize(text));
        HclBody body = parser.body(Kind.EOF, "");
        parser.in.expect(Kind.EOF, "an attribute or a block");
        return body;
    }

    /** Items up to (not including) {@code end}: a closing brace or the end of file. */
    private HclBody body(Kind end, String blockType) throws HclSyntaxException {
        List<HclItem> items = new ArrayList<>();
        Map<String, Integer> attributeLines = new HashMap<>();
        while (true) {
            in.skipNewlines();
            if (in.at(end) || in.at(Kind.EOF)) {
                return new HclBody(items);
            }
            HclItem item = item(blockType);
            if (item instanceof HclAttribute a) {
                Integer first = attributeLines.putIfAbsent(a.name(), a.line());
                if (first != null) {
                    throw new HclSyntaxException(a.line(),
                            "duplicate attribute " + a.name() + " (first set at line " + first + ")");
                }
            }
            items.add(item);
            if (!in.at(Kind.EOF) && !in.at(Kind.NEWLINE)) {
                throw afterItem(item, in.peek());
            }
            if (!in.at(Kind.EOF)) {
                in.next();
            }
        }
    }

    /** What is wrong when {@code t} follows {@code item} on its line, led by HCL2's summary (what Nomad says). */
    private static HclSyntaxException afterItem(HclItem item, HclToken t) {
        if (item instanceof HclAttribute a) {
            return new HclSyntaxException(t.line(), t.kind() == Kind.COMMA
                    ? "Unexpected comma after argument: arguments are separated by newlines, not commas (after attribute "
                            + a.name() + ")"
                    : "Missing newline after argument: expected a newline after attribute " + a.name() + ", found "
                            + t.describe());
        }
        return HclTokenCursor.unexpected(t, "a newline after " + describe(item));
    }

    private static String describe(HclItem item) {
        return item instanceof HclAttribute a ? "attribute " + a.name() : "block " + ((HclBlock) item).type();
    }

    private HclItem item(String blockType) throws HclSyntaxException {
        HclToken first = in.peek();
        if (first.kind() == Kind.STRING && in.peekRaw(1).kind() == Kind.EQUALS) {
            throw new HclSyntaxException(first.line(), "Invalid argument name: argument names must not be quoted, "
                    + "found " + first.describe() + " (HCL1 allowed it; Nomad's HCL2 parser does not)");
        }
        HclToken name = in.expect(Kind.IDENT, "an attribute name or a block type");
        if (in.at(Kind.EQUALS)) {
            in.next();
            return new HclAttribute(name.text(), value(blockType), name.line());
        }
        List<String> labels = new ArrayList<>();
        while (in.at(Kind.STRING) || in.at(Kind.IDENT)) {
            labels.add(in.next().text());
        }
        HclToken open = in.peek();
        if (open.kind() != Kind.LBRACE) {
            throw HclTokenCursor.unexpected(open, labels.isEmpty() ? "\"=\" or \"{\" after " + name.text() : "\"{\"");
        }
        in.next();
        in.enter(open.line());
        HclBody body;
        boolean singleLine = false;
        if (in.at(Kind.NEWLINE)) {
            body = body(Kind.RBRACE, name.text());
        } else if (in.at(Kind.RBRACE)) {
            body = new HclBody(List.of());
        } else {
            HclToken attrName = in.expect(Kind.IDENT, "an attribute name or a newline");
            if (!in.at(Kind.EQUALS)) {
                throw new HclSyntaxException(attrName.line(), "Argument definition required: expected \"=\" (a "
                        + "single-line block holds one attribute), found " + in.peek().describe() + "; a nested block "
                        + attrName.text() + " goes on a line of its own within " + name.text());
            }
            in.next();
            body = new HclBody(List.of(new HclAttribute(attrName.text(), value(name.text()), attrName.line())));
            singleLine = true;
        }
        if (singleLine && !in.at(Kind.RBRACE)) {
            HclToken t = in.peek();
            throw new HclSyntaxException(t.line(), "Invalid single-argument block definition: expected \"}\" closing "
                    + "block " + name.text() + " of line " + name.line() + ", found " + t.describe() + (t.kind()
                    == Kind.NEWLINE ? " (an attribute on the block's opening line makes it a single-line block)"
                            : " (a single-line block holds one attribute)"));
        }
        in.expect(Kind.RBRACE, "\"}\" closing block " + name.text() + " of line " + name.line());
        in.leave();
        return new HclBlock(name.text(), labels, body, name.line());
    }

    private HclValue value(String blockType) throws HclSyntaxException {
        HclToken first = in.peek();
        HclValue v = expressions.value();
        if (v instanceof HclValue.Expr e && e.expr() instanceof HclExpr.Ref r && !blockType.equals("variable")
                && !blockType.equals("dynamic")
                && !r.name().startsWith("NOMAD_")) {
            throw new HclSyntaxException(first.line(), "expected a value, found identifier " + r.name()
                    + " (quote a string: \"" + r.name() + "\"; a variable is var." + r.name() + ")");
        }
        return v;
    }
}
