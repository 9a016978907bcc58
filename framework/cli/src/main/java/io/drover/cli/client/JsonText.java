package io.drover.cli.client;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON text (RFC 8259, as Jackson core's parser reads it with its defaults) into {@link Json} values, for
 * the short read-only commands: Jackson's {@code JsonFactory} and parser were ~65 classes that each such call loaded
 * and initialised (with the next step, 12-13 ms of CPU less per call at load 10: docs/performance.md, "Session 14").
 * It accepts what that parser
 * accepts and refuses what it refuses ({@code JsonTest} holds both on the same texts): no comments, no
 * single quotes, no unquoted names, no leading zeros or {@code +}, no {@code NaN}, no control character unescaped
 * in a string; the first value is read and any text after it ignored. Nesting deeper than 1,000 levels and
 * numbers longer than 1,000 characters are refused, as Jackson's default {@code StreamReadConstraints} do. Every
 * refusal is a {@link Malformed} naming the character offset. One instance per text, on the caller's thread.
 */
final class JsonText {
    private static final int MAX_DEPTH = 1000;
    private static final int MAX_NUMBER_LENGTH = 1000;

    /** Text that is not JSON: the message names what was expected and where. */
    static final class Malformed extends IOException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    private final String s;
    private int i;

    private JsonText(String s) {
        this.s = s;
    }

    /** The first value of {@code text}, or null when it holds only whitespace. */
    static Json parseFirst(String text) throws Malformed {
        JsonText r = new JsonText(text);
        r.skipSpace();
        if (r.i >= r.s.length()) {
            return null;
        }
        return r.value(0);
    }

    private Json value(int depth) throws Malformed {
        char c = s.charAt(i);
        if (depth >= MAX_DEPTH && (c == '{' || c == '[')) {
            throw fail("nesting deeper than " + MAX_DEPTH + " levels");
        }
        switch (c) {
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case '"':
                i++;
                return Json.string(string(false));
            case 't':
                word("true");
                return Json.TRUE_VALUE;
            case 'f':
                word("false");
                return Json.FALSE_VALUE;
            case 'n':
                word("null");
                return Json.NULL_VALUE;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number(depth == 0);
                }
                throw fail("unexpected character " + describe(c));
        }
    }

    private Json object(int depth) throws Malformed {
        i++; // '{'
        Map<String, Json> fields = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            i++;
            return Json.object(fields);
        }
        while (true) {
            if (peek() != '"') {
                throw fail("expected a field name in double quotes");
            }
            i++;
            String name = string(true);
            skipSpace();
            if (peek() != ':') {
                throw fail("expected ':' after field name");
            }
            i++;
            skipSpace();
            needMore("a value");
            fields.put(name, value(depth));
            skipSpace();
            char c = peek();
            i++;
            if (c == '}') {
                return Json.object(fields);
            }
            if (c != ',') {
                i--;
                throw fail("expected ',' or '}' in an object");
            }
            skipSpace();
        }
    }

    private Json array(int depth) throws Malformed {
        i++; // '['
        List<Json> elements = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            i++;
            return Json.array(elements);
        }
        while (true) {
            needMore("a value");
            elements.add(value(depth));
            skipSpace();
            char c = peek();
            i++;
            if (c == ']') {
                return Json.array(elements);
            }
            if (c != ',') {
                i--;
                throw fail("expected ',' or ']' in an array");
            }
            skipSpace();
        }
    }

    /**
     * A string's content after its opening quote, up to and past its closing one. In a field name a {@code \\u}
     * escape of a surrogate must be half of an escaped pair, as Jackson 2.23 holds (its values may hold one alone).
     */
    private String string(boolean name) throws Malformed {
        int start = i;
        int n = s.length();
        while (i < n) { // the common case: no escape
            char c = s.charAt(i);
            if (c == '"') {
                return s.substring(start, i++);
            }
            if (c == '\\' || c < 0x20) {
                break;
            }
            i++;
        }
        StringBuilder sb = new StringBuilder(s.length() - start).append(s, start, i);
        while (i < n) {
            char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                i--;
                throw fail("unescaped control character " + describe(c) + " in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= n) {
                break;
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    char u = unicode();
                    sb.append(u);
                    if (name && Character.isLowSurrogate(u)) {
                        throw fail("unexpected low surrogate in a field name");
                    }
                    if (name && Character.isHighSurrogate(u)) {
                        if (!s.startsWith("\\u", i)) {
                            throw fail("broken surrogate pair in a field name");
                        }
                        i += 2;
                        char low = unicode();
                        if (!Character.isLowSurrogate(low)) {
                            throw fail("broken surrogate pair in a field name");
                        }
                        sb.append(low);
                    }
                }
                default -> {
                    i--;
                    throw fail("unknown escape " + describe(e) + " in a string");
                }
            }
        }
        throw fail("end of input inside a string");
    }

    private char unicode() throws Malformed {
        if (i + 4 > s.length()) {
            i = s.length();
            throw fail("end of input inside a \\u escape");
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0 || s.charAt(i) > 'f') {
                throw fail("expected a hex digit in a \\u escape");
            }
            v = v * 16 + d;
            i++;
        }
        return (char) v;
    }

    private Json number(boolean root) throws Malformed {
        int start = i;
        int n = s.length();
        if (s.charAt(i) == '-') {
            i++;
        }
        int intStart = i;
        digits("a digit");
        if (i - intStart > 1 && s.charAt(intStart) == '0') {
            i = intStart;
            throw fail("leading zero in a number");
        }
        boolean decimal = false;
        if (i < n && s.charAt(i) == '.') {
            i++;
            digits("a digit after '.'");
            decimal = true;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            digits("a digit in the exponent");
            decimal = true;
        }
        if (i - start > MAX_NUMBER_LENGTH) {
            throw fail("number longer than " + MAX_NUMBER_LENGTH + " characters");
        }
        if (root && i < n && !isSpace(s.charAt(i))) { // inside a value the container checks what follows
            throw fail("expected space after a root-level number, not " + describe(s.charAt(i)));
        }
        String text = s.substring(start, i);
        if (decimal) {
            return Json.decimal(Double.parseDouble(text));
        }
        if (i - intStart <= 18) {
            return Json.integer(Long.parseLong(text));
        }
        BigInteger b = new BigInteger(text);
        return b.bitLength() < 64 ? Json.integer(b.longValue()) : Json.big(b);
    }

    private void digits(String what) throws Malformed {
        int from = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == from) {
            throw fail("expected " + what);
        }
    }

    private void word(String w) throws Malformed {
        if (!s.startsWith(w, i)) {
            throw fail("unrecognized token (expected '" + w + "')");
        }
        i += w.length();
        if (i < s.length() && continuesToken(s.charAt(i))) {
            throw fail("unrecognized token (expected '" + w + "')");
        }
    }

    /** A character that would continue a bare token, so {@code truex} is refused (Jackson's test). */
    private static boolean continuesToken(char c) {
        return c >= '0' && c != ']' && c != '}' && Character.isJavaIdentifierPart(c);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private void skipSpace() {
        while (i < s.length()) {
            if (!isSpace(s.charAt(i))) {
                return;
            }
            i++;
        }
    }

    /** The character at the position; past the end, a {@link Malformed}. */
    private char peek() throws Malformed {
        needMore("more");
        return s.charAt(i);
    }

    private void needMore(String what) throws Malformed {
        if (i >= s.length()) {
            throw fail("unexpected end of input (expected " + what + ")");
        }
    }

    private Malformed fail(String what) {
        return new Malformed(what + " at character " + i);
    }

    private static String describe(char c) {
        return c < 0x20 || c > 0x7e ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }
}
