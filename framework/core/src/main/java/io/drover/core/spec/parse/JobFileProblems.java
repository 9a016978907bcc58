package io.drover.core.spec.parse;

import java.util.List;

/**
 * All the problems of one job file at once. Its own file, line, key and message are the first problem's, so
 * that a caller that reads only {@link #getMessage()} still gets a complete one-line report.
 */
public final class JobFileProblems extends JobFileException {
    private final List<JobFileException> problems;

    private JobFileProblems(List<JobFileException> problems) {
        super(problems.get(0).file(), problems.get(0).line(), problems.get(0).col(), problems.get(0).key(),
                problems.get(0).problem());
        this.problems = List.copyOf(problems);
    }

    /** @param problems at least one; a single problem is returned as is */
    public static JobFileException of(List<JobFileException> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("no problem");
        }
        return problems.size() == 1 ? problems.get(0) : new JobFileProblems(problems);
    }

    @Override
    public List<JobFileException> problems() {
        return problems;
    }
}
