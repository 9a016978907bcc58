package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclToken.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses one HCL2 expression (operators by HCL's precedence, conditionals, function calls, references,
 * indexes, splats, tuples, objects, for-expressions, templates) from a {@link HclTokenCursor}. A value made of
 * literals only comes back as the literal {@link HclValue} it always was; anything else as an
 * {@link HclValue.Expr}. Pure; throws only {@link HclSyntaxException}.
 */
final class HclExprParser {
    private static final List<List<Kind>> BINARY_LEVELS = List.of(
            List.of(Kind.OR), List.of(Kind.AND), List.of(Kind.EQEQ, Kind.NEQ),
            List.of(Kind.LT, Kind.LE, Kind.GT, Kind.GE), List.of(Kind.PLUS, Kind.MINUS),
            List.of(Kind.STAR, Kind.SLASH, Kind.PERCENT));

    private final HclTokenCursor in;

    HclExprParser(HclTokenCursor in) {
        this.in = in;
    }

    /** Parses a whole expression text (a template's {@code ${...}} content) placed at line:col of its file. */
    static HclExpr parseStandalone(String text, int line, int col) throws HclSyntaxException {
        HclTokenCursor cursor = new HclTokenCursor(HclLexer.tokenize(text, line, col));
        cursor.pushNewlines(true);
        HclExprParser p = new HclExprParser(cursor);
        HclExpr e = p.expression();
        HclToken end = cursor.peek();
        if (end.kind() != Kind.EOF) {
            throw new HclSyntaxException(end.line(), end.col(), "unexpected " + end.describe() + " in expression");
        }
        return e;
    }

    /** An attribute's value: a literal {@link HclValue} or an {@link HclValue.Expr}. */
    HclValue value() throws HclSyntaxException {
        HclToken first = in.peek();
        HclExpr e = expression();
        return e instanceof HclExpr.Literal l ? l.value() : new HclValue.Expr(e, first.line());
    }

    HclExpr expression() throws HclSyntaxException {
        HclToken start = in.peek();
        in.enter(start.line());
        HclExpr cond = binary(0);
        if (in.at(Kind.QUESTION)) {
            in.next();
            HclExpr then = expression();
            in.expect(Kind.COLON, "\":\" of the conditional");
            HclExpr otherwise = expression();
            cond = new HclExpr.Conditional(cond, then, otherwise, start.line(), start.col());
        }
        in.leave();
        return cond;
    }

    private HclExpr binary(int level) throws HclSyntaxException {
        if (level == BINARY_LEVELS.size()) {
            return unary();
        }
        HclExpr left = binary(level + 1);
        while (BINARY_LEVELS.get(level).contains(in.peek().kind())) {
            HclToken op = in.next();
            HclExpr right = binary(level + 1);
            left = new HclExpr.Binary(op.text(), left, right, op.line(), op.col());
        }
        return left;
    }

    private HclExpr unary() throws HclSyntaxException {
        HclToken t = in.peek();
        if (t.kind() == Kind.MINUS || t.kind() == Kind.BANG) {
            in.next();
            in.enter(t.line());
            HclExpr operand = unary();
            in.leave();
            if (t.kind() == Kind.MINUS && operand instanceof HclExpr.Literal l && l.value() instanceof HclValue.Num n) {
                return literal(new HclValue.Num(negate(n.value()), t.line()), t);
            }
            return new HclExpr.Unary(t.text(), operand, t.line(), t.col());
        }
        return postfix(term());
    }

    private static Number negate(Number n) {
        return n instanceof Long l ? (Number) (-l) : (Number) (-n.doubleValue());
    }

    private static HclExpr literal(HclValue v, HclToken at) {
        return new HclExpr.Literal(v, at.line(), at.col());
    }

    private HclExpr term() throws HclSyntaxException {
        HclToken t = in.next();
        return switch (t.kind()) {
            case STRING -> string(t);
            case NUMBER -> literal(new HclValue.Num(number(t.text(), t.line()), t.line()), t);
            case IDENT -> identifier(t);
            case LBRACKET -> tuple(t);
            case LBRACE -> object(t);
            case LPAREN -> {
                in.pushNewlines(true);
                HclExpr inner = expression();
                in.expect(Kind.RPAREN, "\")\"");
                in.popNewlines();
                yield inner;
            }
            default -> throw HclTokenCursor.unexpected(t, "a value");
        };
    }

    /** A string stays a literal {@link HclValue.Str} (a template when it holds sequences: evaluated later). */
    private static HclExpr string(HclToken t) {
        boolean heredoc = t.col() < 0;
        return new HclExpr.Literal(new HclValue.Str(t.text(), t.line(), heredoc ? t.line() + 1 : t.line()), t.line(),
                heredoc ? 1 : t.col());
    }

    private HclExpr identifier(HclToken t) throws HclSyntaxException {
        switch (t.text()) {
            case "true" -> {
                return literal(new HclValue.Bool(true, t.line()), t);
            }
            case "false" -> {
                return literal(new HclValue.Bool(false, t.line()), t);
            }
            case "null" -> {
                return literal(new HclValue.Null(t.line()), t);
            }
            default -> {
            }
        }
        if (in.peekRaw(0).kind() == Kind.LPAREN) {
            in.next();
            in.pushNewlines(true);
            List<HclExpr> args = new ArrayList<>();
            boolean expand = false;
            while (!in.at(Kind.RPAREN)) {
                args.add(expression());
                if (in.at(Kind.ELLIPSIS)) {
                    in.next();
                    expand = true;
                    break;
                }
                if (!in.at(Kind.COMMA)) {
                    break;
                }
                in.next();
            }
            HclToken close = in.peek();
            if (close.kind() != Kind.RPAREN) {
                throw new HclSyntaxException(close.line(), close.col(),
                        "expected \",\" or \")\" in the arguments of " + t.text() + "(), found " + close.describe());
            }
            in.next();
            in.popNewlines();
            return new HclExpr.Call(t.text(), args, expand, t.line(), t.col());
        }
        return new HclExpr.Ref(t.text(), t.line(), t.col());
    }

    /** Attribute access, indexes and splats after a term (a newline ends them, as in HCL). */
    private HclExpr postfix(HclExpr target) throws HclSyntaxException {
        while (true) {
            HclToken t = in.peekRaw(0);
            if (t.kind() == Kind.DOT) {
                HclToken after = in.peekRaw(1);
                if (after.kind() == Kind.STAR) {
                    in.next();
                    in.next();
                    target = new HclExpr.Splat(target, traversals(new HclExpr.Ref("~", t.line(), t.col()), false), t.line(), t.col());
                    continue;
                }
                in.next();
                target = attrStep(target, t);
            } else if (t.kind() == Kind.LBRACKET) {
                in.next();
                if (in.at(Kind.STAR) && in.peekRaw(1).kind() == Kind.RBRACKET) {
                    in.next();
                    in.next();
                    target = new HclExpr.Splat(target, traversals(new HclExpr.Ref("~", t.line(), t.col()), true), t.line(), t.col());
                    continue;
                }
                target = indexStep(target, t);
            } else {
                return target;
            }
        }
    }

    private HclExpr attrStep(HclExpr target, HclToken dot) throws HclSyntaxException {
        HclToken name = in.next();
        if (name.kind() == Kind.IDENT) {
            return new HclExpr.GetAttr(target, name.text(), target.line(), target.col());
        } else if (name.kind() == Kind.NUMBER && name.text().chars().allMatch(Character::isDigit)) {
            return new HclExpr.Index(target, literal(new HclValue.Num(Long.parseLong(name.text()), name.line()), name),
                    dot.line(), dot.col());
        }
        throw new HclSyntaxException(name.line(), name.col(), "expected an attribute name after \".\", found " + name.describe());
    }

    private HclExpr indexStep(HclExpr target, HclToken open) throws HclSyntaxException {
        in.pushNewlines(true);
        HclExpr key = expression();
        in.expect(Kind.RBRACKET, "\"]\" closing the index");
        in.popNewlines();
        return new HclExpr.Index(target, key, open.line(), open.col());
    }

    /** The steps applied to each element of a splat ({@code full}: indexes too, as after {@code [*]}). */
    private HclExpr traversals(HclExpr base, boolean full) throws HclSyntaxException {
        HclExpr each = base;
        while (true) {
            HclToken t = in.peekRaw(0);
            if (t.kind() == Kind.DOT && in.peekRaw(1).kind() != Kind.STAR) {
                in.next();
                each = attrStep(each, t);
            } else if (full && t.kind() == Kind.LBRACKET && in.peekRaw(1).kind() != Kind.STAR) {
                in.next();
                each = indexStep(each, t);
            } else {
                return each;
            }
        }
    }

    private HclExpr tuple(HclToken open) throws HclSyntaxException {
        in.enter(open.line());
        in.pushNewlines(true);
        if (in.atIdent("for") && in.peekRaw(1).kind() == Kind.IDENT) {
            HclExpr f = forExpr(open, false);
            in.popNewlines();
            in.leave();
            return f;
        }
        List<HclExpr> items = new ArrayList<>();
        while (!in.at(Kind.RBRACKET)) {
            items.add(expression());
            if (in.at(Kind.COMMA)) {
                in.next();
            } else if (!in.at(Kind.RBRACKET)) {
                throw HclTokenCursor.unexpected(in.peek(), "\",\" or \"]\" in the list of line " + open.line());
            }
        }
        in.next();
        in.popNewlines();
        in.leave();
        if (items.stream().allMatch(HclExpr.Literal.class::isInstance)) {
            List<HclValue> values = items.stream().map(i -> ((HclExpr.Literal) i).value()).toList();
            return literal(new HclValue.ListValue(values, open.line()), open);
        }
        return new HclExpr.Tuple(items, open.line(), open.col());
    }

    private HclExpr object(HclToken open) throws HclSyntaxException {
        in.enter(open.line());
        in.pushNewlines(false);
        in.skipNewlines();
        if (in.atIdent("for") && in.peekRaw(1).kind() == Kind.IDENT) {
            in.pushNewlines(true);
            HclExpr f = forExpr(open, true);
            in.popNewlines();
            in.popNewlines();
            in.leave();
            return f;
        }
        List<HclExpr> keys = new ArrayList<>();
        List<HclExpr> values = new ArrayList<>();
        List<HclAttribute> literalEntries = new ArrayList<>();
        Map<String, Integer> keyLines = new HashMap<>();
        boolean allLiteral = true;
        while (true) {
            in.skipNewlines();
            if (in.at(Kind.RBRACE)) {
                break;
            }
            HclToken keyToken = in.peek();
            HclExpr key;
            if (keyToken.kind() == Kind.IDENT && isKeyEnd(in.peekRaw(1).kind())) {
                in.next();
                key = literal(new HclValue.Str(keyToken.text(), keyToken.line()), keyToken);
            } else if (keyToken.kind() == Kind.STRING && isKeyEnd(in.peekRaw(1).kind())) {
                key = string(in.next());
            } else if (keyToken.kind() == Kind.LPAREN) {
                key = term();
            } else {
                throw HclTokenCursor.unexpected(keyToken, "a key or \"}\" in the object of line " + open.line());
            }
            if (!in.at(Kind.EQUALS) && !in.at(Kind.COLON)) {
                throw HclTokenCursor.unexpected(in.peek(), "\"=\" or \":\" after key " + keyToken.text());
            }
            in.next();
            HclExpr value = expression();
            if (key instanceof HclExpr.Literal kl && kl.value() instanceof HclValue.Str ks) {
                Integer first = keyLines.putIfAbsent(ks.value(), keyToken.line());
                if (first != null) {
                    throw new HclSyntaxException(keyToken.line(),
                            "duplicate key " + ks.value() + " (first set at line " + first + ")");
                }
                if (value instanceof HclExpr.Literal vl) {
                    literalEntries.add(new HclAttribute(ks.value(), vl.value(), keyToken.line()));
                } else {
                    allLiteral = false;
                }
            } else {
                allLiteral = false;
            }
            keys.add(key);
            values.add(value);
            if (in.at(Kind.COMMA)) {
                in.next();
            } else if (!in.at(Kind.NEWLINE) && !in.at(Kind.RBRACE)) {
                throw HclTokenCursor.unexpected(in.peek(), "\",\", a newline or \"}\" in the object of line " + open.line());
            }
        }
        in.next();
        in.popNewlines();
        in.leave();
        if (allLiteral) {
            return literal(new HclValue.ObjectValue(literalEntries, open.line()), open);
        }
        return new HclExpr.ObjectCons(keys, values, open.line(), open.col());
    }

    private static boolean isKeyEnd(Kind k) {
        return k == Kind.EQUALS || k == Kind.COLON;
    }

    private HclExpr forExpr(HclToken open, boolean object) throws HclSyntaxException {
        in.next(); // for
        String first = in.expect(Kind.IDENT, "a name after for").text();
        String second = null;
        if (in.at(Kind.COMMA)) {
            in.next();
            second = in.expect(Kind.IDENT, "a second name after \",\"").text();
        }
        if (!in.atIdent("in")) {
            throw HclTokenCursor.unexpected(in.peek(), "\"in\" in the for expression");
        }
        in.next();
        HclExpr collection = expression();
        in.expect(Kind.COLON, "\":\" after the for expression's collection");
        HclExpr key = null;
        HclExpr value = expression();
        boolean grouping = false;
        if (object) {
            in.expect(Kind.ARROW, "\"=>\" in the object for expression");
            key = value;
            value = expression();
            if (in.at(Kind.ELLIPSIS)) {
                in.next();
                grouping = true;
            }
        }
        HclExpr cond = null;
        if (in.atIdent("if")) {
            in.next();
            cond = expression();
        }
        in.expect(object ? Kind.RBRACE : Kind.RBRACKET, object ? "\"}\" closing the for expression" : "\"]\" closing the for expression");
        String keyVar = second == null ? null : first;
        String valueVar = second == null ? first : second;
        return new HclExpr.For(keyVar, valueVar, collection, key, value, cond, grouping, open.line(), open.col());
    }

    static Number number(String text, int line) throws HclSyntaxException {
        try {
            if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
                return Long.parseLong(text);
            }
            double d = Double.parseDouble(text);
            if (Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new HclSyntaxException(line, "number out of range: " + text);
        }
    }
}
