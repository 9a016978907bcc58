package io.drover.core.spec.parse;

import java.util.List;

/** A job file that cannot run: syntax, unknown key, bad value, bad structure. */
public class JobFileException extends InputFileException {
    public JobFileException(String file, int line, String key, String problem) {
        super(file, line, key, problem);
    }

    public JobFileException(String file, int line, int col, String key, String problem) {
        super(file, line, col, key, problem);
    }

    /**
     * Every problem of the file, in the order found; this one alone unless the parser found several
     * ({@link JobFileProblems}). Callers that show problems to users should show all of these.
     */
    public List<JobFileException> problems() {
        return List.of(this);
    }
}
