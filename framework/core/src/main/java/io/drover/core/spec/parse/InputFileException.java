package io.drover.core.spec.parse;

/**
 * A problem in a file a user wrote (job file, agent config), reported as one line:
 * {@code <file>:<line>: <key>: <problem>} (the line is left out when unknown, the key when none applies), or
 * {@code <file>:<line>:<col>: ...} when the column is known (problems inside an expression).
 * Never carries a stack trace to the user: print {@link #getMessage()}.
 */
public class InputFileException extends Exception {
    private final String file;
    private final int line;
    private final int col;
    private final String key;
    private final String problem;

    public InputFileException(String file, int line, String key, String problem) {
        this(file, line, 0, key, problem);
    }

    /** @param col 1-based column, 0 when unknown (then left out of the message) */
    public InputFileException(String file, int line, int col, String key, String problem) {
        super(format(file, line, col, key, problem), null, false, false);
        this.file = file;
        this.line = line;
        this.col = line > 0 ? Math.max(0, col) : 0;
        this.key = key;
        this.problem = problem;
    }

    private static String format(String file, int line, int col, String key, String problem) {
        StringBuilder sb = new StringBuilder(file == null ? "<input>" : file);
        if (line > 0) {
            sb.append(':').append(line);
            if (col > 0) {
                sb.append(':').append(col);
            }
        }
        sb.append(": ");
        if (key != null && !key.isEmpty()) {
            sb.append(key).append(": ");
        }
        return oneLine(sb.append(problem).toString());
    }

    /** Escapes line breaks and other control characters (from labels or keys) so the message stays one line. */
    private static String oneLine(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                out.append("\\n");
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    public String file() {
        return file;
    }

    /** 1-based line, 0 when unknown. */
    public int line() {
        return line;
    }

    /** 1-based column, 0 when unknown. */
    public int col() {
        return col;
    }

    /** The offending key (e.g. {@code task "web" > kill_timeout}), empty when none applies. */
    public String key() {
        return key == null ? "" : key;
    }

    /** The problem alone, without file, line and key. */
    public String problem() {
        return problem;
    }
}
