package io.drover.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The agent's timer thread runs at nice -10 where the process may (root or CAP_SYS_NICE), and keeps nice 0
 * elsewhere; the kernel's own view ({@code /proc/self/task/TID/stat}) is what is checked.
 */
class RaisedPriorityTest {

    @Test
    void theCallingThreadIdIsAThreadOfThisProcess() {
        OptionalInt tid = RaisedPriority.callingThreadId();
        assertThat(tid).isPresent();
        assertThat(RaisedPriority.niceOf(tid.getAsInt())).isPresent();
    }

    @Test
    void theTimerThreadIsRaisedWhereAllowedAndOnlyIt() throws Exception {
        try (RealTimers timers = new RealTimers()) {
            int tid = timerThreadId(timers);
            int before = RaisedPriority.niceOf(tid).orElseThrow();
            assertThat(before).isZero();
            timers.raisePriority();
            int expected = RaisedPriority.allowed() ? RaisedPriority.NICE : 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (RaisedPriority.niceOf(tid).orElseThrow() != expected && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // the renice runs on its own thread
            }
            assertThat(RaisedPriority.niceOf(tid)).hasValue(expected);
            // the calling (test) thread is untouched
            assertThat(RaisedPriority.niceOf(RaisedPriority.callingThreadId().orElseThrow())).hasValue(0);
            awaitNoRenice();
        }
    }

    @Test
    void engineWorkersKeepNiceZeroEvenWhenTheRaisedTimerIsTheFirstToPostWork() throws Exception {
        try (io.drover.core.engine.EngineRuntime runtime = io.drover.core.engine.EngineRuntime.real(2, true)) {
            int tid = timerThreadId((RealTimers) runtime.timers());
            int expected = RaisedPriority.allowed() ? RaisedPriority.NICE : 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (RaisedPriority.niceOf(tid).orElseThrow() != expected && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            assertThat(RaisedPriority.niceOf(tid)).hasValue(expected);
            // the timer posts work to the engine (as a due timer does): the workers, which spawn tasks, stay at 0
            java.util.List<CompletableFuture<Integer>> nices = new java.util.ArrayList<>();
            CompletableFuture<Void> posted = new CompletableFuture<>();
            runtime.timers().schedule(Duration.ZERO, () -> {
                for (int i = 0; i < 4; i++) {
                    CompletableFuture<Integer> n = new CompletableFuture<>();
                    nices.add(n);
                    runtime.executor().execute(() -> n.complete(
                            RaisedPriority.niceOf(RaisedPriority.callingThreadId().orElseThrow()).orElse(99)));
                }
                posted.complete(null);
            });
            posted.get(10, TimeUnit.SECONDS);
            for (CompletableFuture<Integer> n : nices) {
                assertThat(n.get(10, TimeUnit.SECONDS)).isZero();
            }
            awaitNoRenice();
        }
    }

    /**
     * An agent closed while its timer's renice still runs (a short-lived agent, a loaded machine) leaves no child
     * behind: close ends the renice (StateDirTrustTest's "no process left" failed under load without this). Each
     * round closes as soon as the raise started its renice thread, while renice is being spawned or runs.
     */
    @Test
    void closeEndsTheReniceStillUnderWayAndLeavesNoChild() {
        org.junit.jupiter.api.Assumptions.assumeTrue(RaisedPriority.allowed(), "only root or CAP_SYS_NICE renices");
        for (int i = 0; i < 20; i++) {
            RealTimers timers = new RealTimers();
            timers.raisePriority();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (timers.reniceThread() == null && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            Thread renice = timers.reniceThread();
            assertThat(renice).as("round %d: the raise started a renice", i).isNotNull();
            timers.close();
            assertThat(ProcessHandle.current().children().toList()).as("round %d: no renice left", i).isEmpty();
            assertThat(renice.isAlive()).as("round %d: the renice thread ended", i).isFalse();
        }
    }

    private static int timerThreadId(RealTimers timers) throws Exception {
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        timers.schedule(Duration.ZERO, () -> tid.complete(RaisedPriority.callingThreadId().orElse(-1)));
        return tid.get(10, TimeUnit.SECONDS);
    }

    /** The renice process is gone (it is waited for by its own thread, which then ends). */
    private static void awaitNoRenice() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && (ProcessHandle.current().children().findAny().isPresent()
                || Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("drover-renice")))) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertThat(ProcessHandle.current().children().toList()).isEmpty();
    }
}
