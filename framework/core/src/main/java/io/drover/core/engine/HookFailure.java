package io.drover.core.engine;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import java.util.function.LongFunction;

/**
 * A {@link TaskHook} could not prepare the run: the event to record (built at the time of failure) and whether the
 * restart policy applies (Nomad: a recoverable prestart error such as a failed download restarts the task; an
 * unrecoverable one fails it).
 */
final class HookFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient LongFunction<TaskEvent> event;
    private final boolean recoverable;

    HookFailure(String message, LongFunction<TaskEvent> event, boolean recoverable) {
        super(message, null, false, false);
        this.event = event;
        this.recoverable = recoverable;
    }

    /** Setup Failure (fails the task), as a task dir or env problem always did. */
    static HookFailure setup(String message) {
        return new HookFailure(message, t -> TaskEvents.setupFailure(t, message, true), false);
    }

    TaskEvent event(long nanos) {
        return event.apply(nanos);
    }

    boolean recoverable() {
        return recoverable;
    }
}
