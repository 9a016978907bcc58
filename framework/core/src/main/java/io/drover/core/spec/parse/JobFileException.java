package io.drover.core.spec.parse;

/** A job file that cannot run: syntax, unknown key, bad value, bad structure. */
public class JobFileException extends InputFileException {
    public JobFileException(String file, int line, String key, String problem) {
        super(file, line, key, problem);
    }
}
