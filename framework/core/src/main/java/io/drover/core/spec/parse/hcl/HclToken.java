package io.drover.core.spec.parse.hcl;

/**
 * One lexical token of HCL.
 *
 * @param kind what the token is
 * @param text identifier name, string content (escapes resolved, {@code ${...}} kept verbatim), or number text
 * @param line 1-based line where the token starts
 * @param col 1-based column where the token starts (0 when unknown); for a heredoc the negated column of its
 *     {@code <<} (its text starts on the next line)
 */
public record HclToken(Kind kind, String text, int line, int col) {

    public HclToken(Kind kind, String text, int line) {
        this(kind, text, line, 0);
    }

    /** Token kinds. {@link #STRING} covers quoted strings and heredocs (both are templates). */
    public enum Kind {
        IDENT, STRING, NUMBER, LBRACE, RBRACE, LBRACKET, RBRACKET, EQUALS, COLON, COMMA, MINUS, NEWLINE, EOF,
        // expression operators (HCL2)
        DOT, ELLIPSIS, LPAREN, RPAREN, PLUS, STAR, SLASH, PERCENT, EQEQ, NEQ, LT, LE, GT, GE, AND, OR, BANG,
        QUESTION, ARROW
    }

    /** How the token reads in an error message: {@code newline}, {@code "{"}, {@code identifier foo}. */
    public String describe() {
        return switch (kind) {
            case IDENT -> "identifier " + text;
            case STRING -> "string \"" + shorten(text) + "\"";
            case NUMBER -> "number " + text;
            case NEWLINE -> "newline";
            case EOF -> "end of file";
            default -> "\"" + text + "\"";
        };
    }

    private static String shorten(String s) {
        String oneLine = s.replace("\n", "\\n");
        return oneLine.length() > 30 ? oneLine.substring(0, 27) + "..." : oneLine;
    }
}
