package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.process.ProcessLeakCheck;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The marker line {@link RawExecJobs#markerEnv()} puts in a job is the RUNNING test's: each repetition gets a new
 * marker from {@link ProcessLeakCheck}, and the line must carry it. (It was a constant, read once when the class
 * loaded: every test after the first marked its tasks with another test's marker, and its own leak check could not
 * see them; session 11's orphan {@code drover-shim} after the template tests went unreported that way.)
 */
@ExtendWith(ProcessLeakCheck.class)
class RawExecJobsMarkerTest {
    @RepeatedTest(2)
    void theMarkerLineIsTheRunningTests() {
        assertThat(RawExecJobs.markerEnv()).isEqualTo(ProcessLeakCheck.MARKER_VAR + " = \""
                + ProcessLeakCheck.env().get(ProcessLeakCheck.MARKER_VAR) + "\"");
    }
}
