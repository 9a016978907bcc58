package io.drover.core.spec.parse.hcl;

/**
 * One problem found while evaluating a job file: where (the file may be a {@code -var-file}, else null for
 * the job file itself) and what.
 *
 * @param file the file the problem is in, null for the job file
 * @param line 1-based, 0 when unknown
 * @param col 1-based, 0 when unknown
 */
public record HclProblem(String file, int line, int col, String message) {
    static HclProblem of(HclSyntaxException e) {
        return new HclProblem(null, e.line(), e.col(), e.getMessage());
    }

    static HclProblem in(String file, HclSyntaxException e) {
        return new HclProblem(file, e.line(), e.col(), e.getMessage());
    }
}
