package io.drover.core.engine;

import java.util.concurrent.Executor;

/** An executor with a lane ahead of its ordinary work ({@link EnginePool}). */
interface UrgentExecutor extends Executor {
    /** Runs {@code action} before any ordinary work still queued. */
    void executeUrgent(Runnable action);
}
