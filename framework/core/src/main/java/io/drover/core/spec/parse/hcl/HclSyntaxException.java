package io.drover.core.spec.parse.hcl;

/** A syntax error in an HCL text, at a 1-based line. Carries no stack trace: the message is for users. */
public final class HclSyntaxException extends Exception {
    private final int line;

    public HclSyntaxException(int line, String message) {
        super(message, null, false, false);
        this.line = line;
    }

    /** 1-based line of the problem. */
    public int line() {
        return line;
    }
}
