package io.drover.core.spec.parse.tree;

/**
 * A problem found in a file, located by line and key, before it is turned into the file kind's exception
 * (job file, agent config). No stack trace: the message is for users.
 */
public final class TreeProblem extends Exception {
    private final int line;
    private final String key;

    /**
     * @param line 1-based, 0 when unknown
     * @param key key path such as {@code job "x" > group "g" > count}, empty when none applies
     */
    public TreeProblem(int line, String key, String problem) {
        super(problem, null, false, false);
        this.line = line;
        this.key = key == null ? "" : key;
    }

    public int line() {
        return line;
    }

    public String key() {
        return key;
    }

    public String problem() {
        return getMessage();
    }
}
