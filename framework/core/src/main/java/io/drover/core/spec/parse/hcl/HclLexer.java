package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclToken.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits HCL (v2 native syntax subset) text into tokens.
 *
 * <p>Comments ({@code #}, {@code //}, <code>/* ... *&#47;</code>) are dropped; a newline is a token because it ends
 * an attribute. Quoted strings resolve the escapes {@code \n \r \t \" \\ \\uXXXX \\UXXXXXXXX} and keep every
 * {@code ${...}} and {@code %{...}} template sequence, and the literal escapes <code>$${</code> and <code>%%{</code>,
 * verbatim, exactly as written. Heredocs ({@code <<EOF}, {@code <<-EOF}) become string tokens with their
 * text taken raw. Pure; throws only {@link HclSyntaxException}.
 */
public final class HclLexer {
    private final String src;
    private int pos;
    private int line = 1;
    /** Index of the first character of the current line, minus the column offset of the first line. */
    private int lineStart;
    private final List<HclToken> tokens = new ArrayList<>();

    private HclLexer(String src) {
        this.src = src;
    }

    /** @return the tokens of {@code text}, always ending with an {@link Kind#EOF} token */
    public static List<HclToken> tokenize(String text) throws HclSyntaxException {
        return tokenize(text, 1, 1);
    }

    /**
     * Tokens of a piece of text that starts at {@code line}:{@code col} of its file (the expression inside a
     * template's {@code ${...}}), so that positions stay those of the file.
     */
    public static List<HclToken> tokenize(String text, int line, int col) throws HclSyntaxException {
        HclLexer lexer = new HclLexer(text);
        lexer.line = line;
        lexer.lineStart = -(col - 1);
        lexer.run();
        return lexer.tokens;
    }

    private int col() {
        return pos - lineStart + 1;
    }

    private void run() throws HclSyntaxException {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == '\n') {
                add(Kind.NEWLINE, "\n");
                pos++;
                line++;
                lineStart = pos;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\uFEFF') {
                pos++;
            } else if (c == '#' || (c == '/' && peek(1) == '/')) {
                skipLineComment();
            } else if (c == '/' && peek(1) == '*') {
                skipBlockComment();
            } else if (c == '"') {
                quotedString();
            } else if (c == '<' && peek(1) == '<') {
                heredoc();
            } else if (c >= '0' && c <= '9') {
                number();
            } else if (Character.isLetter(c) || c == '_') {
                identifier();
            } else {
                punctuation(c);
            }
        }
        add(Kind.EOF, "");
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < src.length() ? src.charAt(i) : '\0';
    }

    private void add(Kind kind, String text) {
        tokens.add(new HclToken(kind, text, line, col()));
    }

    private void punctuation(char c) throws HclSyntaxException {
        String two = pos + 1 < src.length() ? src.substring(pos, pos + 2) : "";
        Kind pair = switch (two) {
            case "==" -> Kind.EQEQ;
            case "!=" -> Kind.NEQ;
            case "<=" -> Kind.LE;
            case ">=" -> Kind.GE;
            case "&&" -> Kind.AND;
            case "||" -> Kind.OR;
            case "=>" -> Kind.ARROW;
            default -> null;
        };
        if (pair != null) {
            add(pair, two);
            pos += 2;
            return;
        }
        if (src.startsWith("...", pos)) {
            add(Kind.ELLIPSIS, "...");
            pos += 3;
            return;
        }
        Kind kind = switch (c) {
            case '{' -> Kind.LBRACE;
            case '}' -> Kind.RBRACE;
            case '[' -> Kind.LBRACKET;
            case ']' -> Kind.RBRACKET;
            case '=' -> Kind.EQUALS;
            case ':' -> Kind.COLON;
            case ',' -> Kind.COMMA;
            case '-' -> Kind.MINUS;
            case '.' -> Kind.DOT;
            case '(' -> Kind.LPAREN;
            case ')' -> Kind.RPAREN;
            case '+' -> Kind.PLUS;
            case '*' -> Kind.STAR;
            case '/' -> Kind.SLASH;
            case '%' -> Kind.PERCENT;
            case '<' -> Kind.LT;
            case '>' -> Kind.GT;
            case '!' -> Kind.BANG;
            case '?' -> Kind.QUESTION;
            default -> null;
        };
        if (kind == null) {
            throw new HclSyntaxException(line, "unexpected character " + describeChar(c));
        }
        add(kind, String.valueOf(c));
        pos++;
    }

    static String describeChar(char c) {
        if (c >= 0x21 && c < 0x7f) {
            return "'" + c + "'";
        }
        return String.format("U+%04X", (int) c);
    }

    private void skipLineComment() {
        while (pos < src.length() && src.charAt(pos) != '\n') {
            pos++;
        }
    }

    private void skipBlockComment() throws HclSyntaxException {
        int start = line;
        boolean sawNewline = false;
        pos += 2;
        while (true) {
            if (pos >= src.length()) {
                throw new HclSyntaxException(start, "unterminated /* comment");
            }
            char c = src.charAt(pos);
            if (c == '*' && peek(1) == '/') {
                pos += 2;
                break;
            }
            if (c == '\n') {
                line++;
                lineStart = pos + 1;
                sawNewline = true;
            }
            pos++;
        }
        if (sawNewline) {
            add(Kind.NEWLINE, "\n");
        }
    }

    private void identifier() {
        int start = pos;
        int startCol = col();
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (Character.isLetterOrDigit(c) || c == '_' || c == '-') {
                pos++;
            } else {
                break;
            }
        }
        tokens.add(new HclToken(Kind.IDENT, src.substring(start, pos), line, startCol));
    }

    private void number() throws HclSyntaxException {
        int start = pos;
        int startCol = col();
        digits();
        if (peek(0) == '.' && isDigit(peek(1))) {
            pos++;
            digits();
        }
        if ((peek(0) == 'e' || peek(0) == 'E')
                && (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
            pos += 2;
            digits();
        }
        if (pos < src.length() && (Character.isLetter(src.charAt(pos)) || src.charAt(pos) == '_')) {
            int end = pos;
            while (end < src.length() && Character.isLetterOrDigit(src.charAt(end))) {
                end++;
            }
            String word = src.substring(start, end);
            throw new HclSyntaxException(line, "unexpected " + word + " (quote it: \"" + word + "\")");
        }
        tokens.add(new HclToken(Kind.NUMBER, src.substring(start, pos), line, startCol));
    }

    private void digits() {
        while (isDigit(peek(0))) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void quotedString() throws HclSyntaxException {
        int startLine = line;
        int startCol = col();
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= src.length() || src.charAt(pos) == '\n') {
                throw new HclSyntaxException(startLine, "unterminated string (a quoted string ends on its line)");
            }
            char c = src.charAt(pos);
            if (c == '"') {
                pos++;
                break;
            } else if (c == '\\') {
                escape(sb);
            } else if ((c == '$' || c == '%') && peek(1) == c && peek(2) == '{') {
                sb.append(c).append(c).append('{');
                pos += 3;
            } else if ((c == '$' || c == '%') && peek(1) == '{') {
                templateSequence(sb);
            } else {
                sb.append(c);
                pos++;
            }
        }
        tokens.add(new HclToken(Kind.STRING, sb.toString(), startLine, startCol));
    }

    private void escape(StringBuilder sb) throws HclSyntaxException {
        char e = peek(1);
        switch (e) {
            case 'n' -> sb.append('\n');
            case 't' -> sb.append('\t');
            case 'r' -> sb.append('\r');
            case '"' -> sb.append('"');
            case '\\' -> sb.append('\\');
            case 'u', 'U' -> {
                int len = e == 'u' ? 4 : 8;
                if (pos + 2 + len > src.length()) {
                    throw new HclSyntaxException(line, "incomplete \\" + e + " escape");
                }
                String hex = src.substring(pos + 2, pos + 2 + len);
                int cp;
                try {
                    cp = Integer.parseUnsignedInt(hex, 16);
                } catch (NumberFormatException ex) {
                    throw new HclSyntaxException(line, "invalid \\" + e + " escape: " + hex);
                }
                if (!Character.isValidCodePoint(cp) || hex.startsWith("+")) {
                    throw new HclSyntaxException(line, "invalid \\" + e + " escape: " + hex);
                }
                sb.appendCodePoint(cp);
                pos += len;
            }
            default -> throw new HclSyntaxException(line,
                    "invalid escape \\" + (e == '\0' || e == '\n' ? "" : String.valueOf(e))
                            + " (allowed: \\n \\r \\t \\\" \\\\ \\uXXXX \\UXXXXXXXX)");
        }
        pos += 2;
    }

    /** Copies {@code ${ ... }} or {@code %{ ... }} verbatim, following nested braces and quoted strings. */
    private void templateSequence(StringBuilder sb) throws HclSyntaxException {
        int startLine = line;
        char opener = src.charAt(pos);
        int depth = 0;
        while (true) {
            if (pos >= src.length() || src.charAt(pos) == '\n') {
                throw new HclSyntaxException(startLine, "unterminated " + opener + "{ ... } in string");
            }
            char c = src.charAt(pos);
            sb.append(c);
            pos++;
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
                if (depth == 0) {
                    return;
                }
            } else if (c == '"') {
                nestedString(sb, startLine);
            }
        }
    }

    private void nestedString(StringBuilder sb, int startLine) throws HclSyntaxException {
        while (true) {
            if (pos >= src.length() || src.charAt(pos) == '\n') {
                throw new HclSyntaxException(startLine, "unterminated string inside ${ ... }");
            }
            char c = src.charAt(pos);
            sb.append(c);
            pos++;
            if (c == '\\' && pos < src.length() && src.charAt(pos) != '\n') {
                sb.append(src.charAt(pos));
                pos++;
            } else if (c == '"') {
                return;
            }
        }
    }

    private void heredoc() throws HclSyntaxException {
        int startLine = line;
        int startCol = col();
        pos += 2;
        boolean indented = peek(0) == '-';
        if (indented) {
            pos++;
        }
        int markerStart = pos;
        while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
            pos++;
        }
        String marker = src.substring(markerStart, pos);
        if (marker.isEmpty() || !Character.isLetter(marker.charAt(0)) && marker.charAt(0) != '_') {
            throw new HclSyntaxException(startLine, "heredoc needs a marker: <<EOF or <<-EOF");
        }
        if (peek(0) == '\r') {
            pos++;
        }
        if (peek(0) != '\n') {
            throw new HclSyntaxException(startLine, "heredoc marker <<" + marker + " must end its line");
        }
        pos++;
        line++;
        lineStart = pos;
        List<String> lines = new ArrayList<>();
        while (true) {
            if (pos >= src.length()) {
                throw new HclSyntaxException(startLine, "heredoc <<" + marker + " has no closing " + marker + " line");
            }
            int eol = src.indexOf('\n', pos);
            int end = eol < 0 ? src.length() : eol;
            String text = src.substring(pos, end);
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (text.strip().equals(marker)) {
                pos = pos + text.indexOf(marker) + marker.length();
                break;
            }
            lines.add(text);
            pos = eol < 0 ? src.length() : eol + 1;
            line++;
            lineStart = pos;
        }
        String value = indented ? HeredocIndent.strip(lines) : String.join("\n", lines) + (lines.isEmpty() ? "" : "\n");
        // column 0: a heredoc's text starts on the line after its marker; template positions use line + 1
        tokens.add(new HclToken(Kind.STRING, value, startLine, -startCol));
    }
}
