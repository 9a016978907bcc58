package io.drover.core.spec.parse.hcl;

/**
 * One lexical token of HCL.
 *
 * @param kind what the token is
 * @param text identifier name, string content (escapes resolved, {@code ${...}} kept verbatim), or number text
 * @param line 1-based line where the token starts
 */
public record HclToken(Kind kind, String text, int line) {

    /** Token kinds. {@link #STRING} covers quoted strings and heredocs. */
    public enum Kind {
        IDENT, STRING, NUMBER, LBRACE, RBRACE, LBRACKET, RBRACKET, EQUALS, COLON, COMMA, MINUS, NEWLINE, EOF
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
