package io.drover.core.engine;

import io.drover.core.event.GoDuration;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import java.time.Duration;
import java.time.Instant;

/**
 * Decides, after each end of a run, whether a task restarts — Nomad's restart tracker semantics: restarts are
 * counted per {@code interval} window opened by the first counted restart; past {@code attempts}, mode
 * {@code fail} stops the task (failed) and mode {@code delay} waits for the window to end. Batch tasks that
 * exit successfully are done; service tasks restart on success too. Drover applies no random jitter to the
 * delay (deterministic; Nomad adds up to 25%).
 *
 * <p>Owned by one task runner: not thread-safe. {@link #decide} mutates the window count, everything else is
 * a pure function of its arguments and that count.
 */
final class RestartTracker {

    /** Why a run ended. */
    enum Outcome {
        SUCCESS,
        FAILURE,
        START_ERROR_RECOVERABLE,
        START_ERROR_UNRECOVERABLE
    }

    /**
     * @param restart whether to start again after {@code delay}
     * @param failed whether the task ends failed (only when not restarting)
     * @param reason Nomad's restart reason, empty for a plain successful end
     */
    record Decision(boolean restart, Duration delay, boolean failed, String reason) {
        static Decision done() {
            return new Decision(false, Duration.ZERO, false, "");
        }
    }

    private final RestartPolicy policy;
    private final boolean restartOnSuccess;
    private Instant windowStart = Instant.MIN;
    private int count;

    RestartTracker(RestartPolicy policy, boolean restartOnSuccess) {
        this.policy = policy;
        this.restartOnSuccess = restartOnSuccess;
    }

    Decision decide(Outcome outcome, Instant now) {
        if (policy.attempts() == 0) {
            if (outcome == Outcome.SUCCESS) {
                return Decision.done();
            }
            return new Decision(false, Duration.ZERO, true, TaskEvents.REASON_NO_RESTARTS);
        }
        if (outcome == Outcome.SUCCESS && !restartOnSuccess) {
            return Decision.done();
        }
        if (outcome == Outcome.START_ERROR_UNRECOVERABLE) {
            return new Decision(false, Duration.ZERO, true, TaskEvents.REASON_UNRECOVERABLE);
        }
        Instant windowEnd = windowStart == Instant.MIN ? Instant.MIN : windowStart.plus(policy.interval());
        if (windowStart == Instant.MIN || now.isAfter(windowEnd)) {
            count = 0;
            windowStart = now;
            windowEnd = now.plus(policy.interval());
        }
        count++;
        if (count > policy.attempts()) {
            if (policy.mode() == RestartMode.FAIL) {
                return new Decision(false, Duration.ZERO, true, "Exceeded allowed attempts " + policy.attempts()
                        + " in interval " + GoDuration.format(policy.interval()) + " and mode is \"fail\"");
            }
            return new Decision(true, Duration.between(now, windowEnd), false, TaskEvents.REASON_DELAY);
        }
        return new Decision(true, policy.delay(), false, TaskEvents.REASON_WITHIN_POLICY);
    }
}
