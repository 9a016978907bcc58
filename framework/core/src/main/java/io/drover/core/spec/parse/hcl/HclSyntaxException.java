package io.drover.core.spec.parse.hcl;

/**
 * A syntax or evaluation error in an HCL text, at a 1-based line (and column, when known). Carries no stack
 * trace: the message is for users.
 */
public final class HclSyntaxException extends Exception {
    private final int line;
    private final int col;

    public HclSyntaxException(int line, String message) {
        this(line, 0, message);
    }

    public HclSyntaxException(int line, int col, String message) {
        super(message, null, false, false);
        this.line = line;
        this.col = col;
    }

    /** 1-based line of the problem. */
    public int line() {
        return line;
    }

    /** 1-based column of the problem, 0 when not known (the syntax errors of literal HCL give the line only). */
    public int col() {
        return col;
    }
}
